/* viewer_assets.c — the trace viewer's page, styles and scripts (src/view/, compiled in as
   C strings), in one copy shared by `smalti view` (view.c) and `smalti studio` (studio_http.c). */
#include "viewer_assets.h"

const char viewer_html[] =
#include "view/viewer.html.inc"
    ;
const char viewer_css[] =
#include "view/viewer.css.inc"
    ;
const char viewer_js[] =
#include "view/viewer.js.inc"
    ;
const char inflate_js[] =
#include "view/inflate.js.inc"
    ;
