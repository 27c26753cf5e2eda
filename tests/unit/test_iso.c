/* test_iso.c — the isometric PNG of 3-D grids: size, background, face shades, empty and hidden cells. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smalti.h"
#include "../../src/io/output.h"

#define STBI_ONLY_PNG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb/stb_image.h> /* the implementation is in test_output.c */
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

typedef struct picture {
    unsigned char *px;
    int w, h;
} picture;

/* Write the grid as an isometric PNG and decode it again with stb_image. */
static picture render(const unsigned char *cells, int mx, int my, int mz, const uint32_t *colors, int block)
{
    grid_view g = {cells, mx, my, mz, "BWR"};
    const char *path = "build/test_iso.png";
    smalti_error err;
    assert_true(save_iso_png(path, &g, colors, block, NULL, &err));
    picture p;
    int n;
    p.px = stbi_load(path, &p.w, &p.h, &n, 3);
    assert_non_null(p.px);
    remove(path);
    return p;
}

static uint32_t pixel(const picture *p, int x, int y)
{
    const unsigned char *c = p->px + 3 * ((size_t)x + (size_t)y * p->w);
    return (uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2];
}

/* A colour shaded the reference's way: each channel times level / 256, truncated. */
static uint32_t shaded(uint32_t rgb, unsigned level)
{
    return (((rgb >> 16 & 0xff) * level) >> 8) << 16 | (((rgb >> 8 & 0xff) * level) >> 8) << 8 | ((rgb & 0xff) * level) >> 8;
}

static const uint32_t colors[3] = {0xFF00FF, 0x80C0FF, 0xFF8000};

/* Compare the picture with a drawing: '.' background, 'K' black outline, and
   'T', 'L', 'R' the colour lit by 215, 143 and 71 (/256), the reference's
   shades of a top, left and right face. */
static void assert_drawing(const picture *p, const char *const *rows, uint32_t rgb)
{
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            char c = rows[y][x];
            uint32_t want = c == '.' ? ISO_BACKGROUND : c == 'K' ? 0 : shaded(rgb, c == 'T' ? 215 : c == 'L' ? 143 : 71);
            if (pixel(p, x, y) != want) fail_msg("pixel (%d, %d) is %06x, expected '%c' = %06x", x, y, pixel(p, x, y), c, want);
        }
}

/* One cell, cubes of 4: a 16x16 picture with the cube's 8x7 sprite at (4, 4),
   worked out by hand from the sprite's definition: a lit top face, a half lit
   left face, a dark right face, the lit front seam and the black outline. */
static void single_cell_faces(void **state)
{
    (void)state;
    const unsigned char cells[1] = {1};
    picture p = render(cells, 1, 1, 1, colors, 4);
    assert_int_equal(p.w, (1 + 1 + 2) * 4);
    assert_int_equal(p.h, ((1 + 1) / 2 + 1 + 2) * 4);
    static const char *const expected[16] = {
        "................", "................", "................", "................",
        "......KKKK......", "....KKTTTTKK....", "....KLTTTTRK....", "....KLLTTRRK....",
        "....KLLTTRRK....", "....KKLTTRKK....", "......KKKK......", "................",
        "................", "................", "................", "................",
    };
    assert_drawing(&p, expected, colors[1]);
    stbi_image_free(p.px);
}

/* With cubes of 2 a lone cell is all outline but for its lit front seam. */
static void single_cell_small_block_exact(void **state)
{
    (void)state;
    const unsigned char cells[1] = {2};
    picture p = render(cells, 1, 1, 1, colors, 2);
    assert_int_equal(p.w, 8);
    assert_int_equal(p.h, 8);
    static const char *const expected[8] = {"........", "........", "..KKKK..", "..KTTK..",
                                            "..KKKK..", "........", "........", "........"};
    assert_drawing(&p, expected, colors[2]);
    stbi_image_free(p.px);
}

/* Two cells side by side along x, cubes of 4: the back one (drawn first) at
   (6, 4) loses its lit seam on the x+1 side, the front one at (10, 6) its left
   outline and upper-left border, so the pair reads as one bar. */
static void neighbours_drop_inner_edges(void **state)
{
    (void)state;
    const unsigned char cells[2] = {1, 1};
    picture p = render(cells, 2, 1, 1, colors, 4);
    assert_int_equal(p.w, 20);
    assert_int_equal(p.h, 16);
    static const char *const expected[16] = {
        "....................", "....................", "....................", "....................",
        "........KKKK........", "......KKTTTTKK......", "......KLTTTTTTKK....", "......KLLLTTTTTTKK..",
        "......KLLLLLTTTTRK..", "......KKLLLLLTTRRK..", "........KKLLLTTRRK..", "..........KKLTTRKK..",
        "............KKKK....", "....................", "....................", "....................",
    };
    assert_drawing(&p, expected, colors[1]);
    stbi_image_free(p.px);
}

/* A 2x2x2 block of cubes of 4: a 24x24 picture whose four upper cells show
   their lit top faces where the projection puts them. */
static void block_top_faces(void **state)
{
    (void)state;
    unsigned char cells[8];
    memset(cells, 1, sizeof cells);
    picture p = render(cells, 2, 2, 2, colors, 4);
    assert_int_equal(p.w, (2 + 2 + 2) * 4);
    assert_int_equal(p.h, ((2 + 2) / 2 + 2 + 2) * 4);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) {
            /* Cell (x, y, 1): sprite corner at (w/2 + 4(x-y) - 4, 4 + 4 + 2(x+y) - 4); top centre at (+3, +1). */
            int left = p.w / 2 + 4 * (x - y) - 4, top = 4 + 4 + 2 * (x + y) - 4;
            assert_int_equal(pixel(&p, left + 3, top + 1), shaded(colors[1], 215));
        }
    assert_int_equal(pixel(&p, 0, 0), ISO_BACKGROUND);
    assert_int_equal(pixel(&p, 23, 23), ISO_BACKGROUND);
    stbi_image_free(p.px);
}

/* Value 0 is empty: its colour never shows; and the cell (0,0,0) behind a full
   2x2x2 block shows nowhere either. */
static void empty_and_hidden_cells_do_not_show(void **state)
{
    (void)state;
    /* A checkerboard of empty (magenta) and blue cells, then a block hiding an orange cell. */
    unsigned char checker[27];
    for (int i = 0; i < 27; i++) checker[i] = (unsigned char)(((i % 3) + (i / 3 % 3) + (i / 9)) % 2);
    unsigned char block[8];
    memset(block, 1, sizeof block);
    block[0] = 2;
    const struct { const unsigned char *cells; int side; } cases[2] = {{checker, 3}, {block, 2}};
    for (int c = 0; c < 2; c++) {
        picture p = render(cases[c].cells, cases[c].side, cases[c].side, cases[c].side, colors, 5);
        int blue = 0;
        for (int y = 0; y < p.h; y++)
            for (int x = 0; x < p.w; x++) {
                uint32_t v = pixel(&p, x, y);
                bool is_blue = v == shaded(colors[1], 215) || v == shaded(colors[1], 143) || v == shaded(colors[1], 71);
                blue += is_blue;
                assert_true(is_blue || v == 0 || v == ISO_BACKGROUND);
            }
        assert_true(blue > 0);
        stbi_image_free(p.px);
    }
    /* An empty grid is all background. */
    unsigned char none[8] = {0};
    picture p = render(none, 2, 2, 2, colors, 3);
    for (int i = 0; i < p.w * p.h; i++) assert_int_equal(pixel(&p, i % p.w, i / p.w), ISO_BACKGROUND);
    stbi_image_free(p.px);
}

/* A picture that would need too much memory is refused with a message, not drawn. */
static void huge_picture_is_refused(void **state)
{
    (void)state;
    static unsigned char cells[1];
    grid_view g = {cells, 1, 1, 1, "B"};
    smalti_error err;
    memset(&err, 0, sizeof err);
    int64_t w, h;
    iso_image_size(4000, 4000, 4000, 64, &w, &h);
    assert_true(w * h > (1LL << 30));
    g.mx = g.my = g.mz = 4000; /* never read: the size check comes first */
    assert_false(save_iso_png("build/test_iso_huge.png", &g, colors, 64, NULL, &err));
    assert_non_null(strstr(err.message, "too large"));
    assert_null(fopen("build/test_iso_huge.png", "rb"));
}

int run_iso_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_cell_faces),
        cmocka_unit_test(single_cell_small_block_exact),
        cmocka_unit_test(neighbours_drop_inner_edges),
        cmocka_unit_test(block_top_faces),
        cmocka_unit_test(empty_and_hidden_cells_do_not_show),
        cmocka_unit_test(huge_picture_is_refused),
    };
    return cmocka_run_group_tests_name("iso", tests, NULL, NULL);
}
