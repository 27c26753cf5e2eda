/* viewer_assets.h — the trace viewer's compiled-in page, styles and scripts (viewer_assets.c). */
#ifndef SMALTI_CLI_VIEWER_ASSETS_H
#define SMALTI_CLI_VIEWER_ASSETS_H

extern const char viewer_html[];
extern const char viewer_css[];
extern const char viewer_js[];
extern const char inflate_js[];

#endif
