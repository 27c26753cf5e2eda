/* test_tilemap.c — autotiles: the 16-tile edge masks and 47-tile blob masks and ranks, checked by hand on a small grid. */
#include "unit.h"
#include <string.h>
#include "../../src/io/tilemap.h"

/* 4x3, legend "GW":   W W W G
                       W G W G
                       W W G G  */
static const unsigned char CELLS[12] = {1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0};

static tile_rule wall_rule(tile_rule_kind kind, int first, bool border_joins)
{
    tile_rule r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.index = first;
    r.joins['W' >> 3] |= (uint8_t)(1u << ('W' & 7));
    r.border_joins = border_joins;
    return r;
}

static void edge_masks_by_hand(void **state)
{
    (void)state;
    grid_view g = {CELLS, 4, 3, 1, "GW"};
    tile_rule r = wall_rule(TILE_EDGE16, 0, false);
    /* N 1, E 2, S 4, W 8; outside the grid is open. */
    assert_int_equal(autotile_edge_mask(&g, &r, 0, 0, 0), 2 | 4);
    assert_int_equal(autotile_edge_mask(&g, &r, 1, 0, 0), 2 | 8);
    assert_int_equal(autotile_edge_mask(&g, &r, 2, 0, 0), 4 | 8);
    assert_int_equal(autotile_edge_mask(&g, &r, 0, 1, 0), 1 | 4);
    assert_int_equal(autotile_edge_mask(&g, &r, 2, 1, 0), 1);
    assert_int_equal(autotile_edge_mask(&g, &r, 0, 2, 0), 1 | 2);
    assert_int_equal(autotile_edge_mask(&g, &r, 1, 2, 0), 8);
    /* The border joined: the corner cell joins on all four sides. */
    tile_rule joined = wall_rule(TILE_EDGE16, 0, true);
    assert_int_equal(autotile_edge_mask(&g, &joined, 0, 0, 0), 15);
}

static void blob_masks_and_ranks_by_hand(void **state)
{
    (void)state;
    grid_view g = {CELLS, 4, 3, 1, "GW"};
    tile_rule r = wall_rule(TILE_BLOB47, 0, false);
    /* N 1, NE 2, E 4, SE 8, S 16, SW 32, W 64, NW 128; a corner only between two joined edges. */
    assert_int_equal(autotile_blob_mask(&g, &r, 0, 0, 0), 4 | 16);      /* SE is G */
    assert_int_equal(autotile_blob_mask(&g, &r, 0, 1, 0), 1 | 16);      /* NE, SE are W but E is not */
    assert_int_equal(autotile_blob_mask(&g, &r, 1, 0, 0), 4 | 64);      /* SE, SW are W but S is not */
    assert_int_equal(autotile_blob_mask(&g, &r, 1, 2, 0), 64);
    /* Ranks among the 47 reduced masks in increasing order: 0 1 4 5 7 16 17 20 ... 255. */
    assert_int_equal(autotile_blob_rank(0), 0);
    assert_int_equal(autotile_blob_rank(1), 1);
    assert_int_equal(autotile_blob_rank(4), 2);
    assert_int_equal(autotile_blob_rank(7), 4);
    assert_int_equal(autotile_blob_rank(17), 6);
    assert_int_equal(autotile_blob_rank(20), 7);
    /* 13 masks use only N, NE, E, SE, S; then 64 and 65 (66 and 67 keep NE without E). */
    assert_int_equal(autotile_blob_rank(68), 15);
    assert_int_equal(autotile_blob_rank(255), 46);
    assert_int_equal(autotile_blob_rank(2), -1);   /* NE without N and E is never a reduced mask */
    int seen = 0;
    for (int m = 0; m < 256; m++) seen += autotile_blob_rank(m) >= 0;
    assert_int_equal(seen, 47);
}

static void ids_default_and_with_a_sheet(void **state)
{
    (void)state;
    grid_view g = {CELLS, 4, 3, 1, "GW"};
    uint32_t ids[12];
    tilemap_ids(&g, NULL, ids); /* the legend index + 1 */
    static const uint32_t plain[12] = {2, 2, 2, 1, 2, 1, 2, 1, 2, 2, 1, 1};
    assert_memory_equal(ids, plain, sizeof plain);

    static tile_sheet sheet; /* large; zeroed: every symbol without a tile */
    memset(&sheet, 0, sizeof sheet);
    sheet.rule['W'] = wall_rule(TILE_EDGE16, 16, false);
    tilemap_ids(&g, &sheet, ids);
    /* Tile 16 + edge mask, + 1 for Tiled's first id; G has no tile: 0. */
    static const uint32_t edge[12] = {17 + 6, 17 + 10, 17 + 12, 0, 17 + 5, 0, 17 + 1, 0, 17 + 3, 17 + 8, 0, 0};
    assert_memory_equal(ids, edge, sizeof edge);

    sheet.rule['W'] = wall_rule(TILE_BLOB47, 32, false);
    sheet.rule['G'].kind = TILE_INDEX;
    sheet.rule['G'].index = 5;
    tilemap_ids(&g, &sheet, ids);
    assert_int_equal(ids[0], 33 + 7);  /* mask 20 */
    assert_int_equal(ids[1], 33 + 15); /* mask 68 */
    assert_int_equal(ids[4], 33 + 6);  /* mask 17 */
    assert_int_equal(ids[3], 6);
}

/* An object's cell is drawn as its ground, autotile included; the ground's joins name the object (as
   the loader adds) so that the ground's own cells join it too. */
static void object_cells_draw_their_ground(void **state)
{
    (void)state;
    static const unsigned char row[3] = {0, 1, 0};
    grid_view g = {row, 3, 1, 1, "WK"}; /* W K W */
    static tile_sheet sheet;
    memset(&sheet, 0, sizeof sheet);
    sheet.rule['W'] = wall_rule(TILE_EDGE16, 0, false);
    sheet.rule['K'].kind = TILE_OBJECT;
    sheet.rule['K'].ground = 'W';
    uint32_t ids[3];
    tilemap_ids(&g, &sheet, ids);
    static const uint32_t apart[3] = {1, 1 + (2 | 8), 1}; /* K's cell joins its W neighbours; they, not joining K, stand alone */
    assert_memory_equal(ids, apart, sizeof apart);
    sheet.rule['W'].joins['K' >> 3] |= (uint8_t)(1u << ('K' & 7));
    tilemap_ids(&g, &sheet, ids);
    static const uint32_t joined[3] = {1 + 2, 1 + (2 | 8), 1 + 8};
    assert_memory_equal(ids, joined, sizeof joined);
    assert_true(tile_sheet_has_objects(&sheet));
    assert_false(tile_sheet_has_objects(NULL));
}

int run_tilemap_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_masks_by_hand),
        cmocka_unit_test(blob_masks_and_ranks_by_hand),
        cmocka_unit_test(ids_default_and_with_a_sheet),
        cmocka_unit_test(object_cells_draw_their_ground),
    };
    return cmocka_run_group_tests_name("tilemap", tests, NULL, NULL);
}
