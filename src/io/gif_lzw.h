/* gif_lzw.h — GIF's LZW compression of a frame's pixels (gif_lzw.c), byte for byte as giflib does it. */
#ifndef SMALTI_GIF_LZW_H
#define SMALTI_GIF_LZW_H
#include <stdbool.h>
#include <stdint.h>

/* Receives each data sub-block: block[0] is its length (1..255), the bytes follow. */
typedef void (*lzw_block_fn)(void *ctx, const unsigned char *block);
typedef struct gif_lzw gif_lzw;

gif_lzw *lzw_new(void);
void lzw_free(gif_lzw *z);
/* Start a frame's data with the LZW minimum code size (2..8) written before it. */
void lzw_begin(gif_lzw *z, int code_size, lzw_block_fn out, void *ctx);
/* The next n pixels of the frame, row after row; each below 1 << code_size. */
void lzw_pixels(gif_lzw *z, const unsigned char *pixels, int n);
/* After the last pixel: the end code and the last, partial block (not the
   empty terminator block). False when memory ran out on the way. */
bool lzw_end(gif_lzw *z);
#endif
