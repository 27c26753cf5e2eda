# docs/pictures.mk — `make pictures`: the docs' pictures, made from the models themselves.
# Every docs/examples/NAME.xml gives docs/examples/NAME.png, the bundled models give the
# contact sheet docs/gallery.png, and models/voronoi_town.xml gives language.md's
# docs/images/voronoi_town.png. Sizes, pixel sizes and colours come from each model's own
# <smalti> settings, so the pictures are what `./smalti run MODEL.xml -o X.png` makes.

# The gallery's models, in the order the sheet shows them (the models.xml entries, less the
# benchmarks): the README's gallery names them in this order.
GALLERY_MODELS := maze dungeon cave river riverdelta kingdoms growth tower3d \
    pathfinder upscale tiledungeon pipes pipering bricks cave_ca life forestfire \
    caves_runner roots_runner plant village_roads village_lsystem village_noise \
    village_voronoi village_poisson terrain frontier stained_glass ruins twisted_town \
    cave_modules chisel_dungeon cave_tiles island_village runner_world
GALLERY_CELL := 150
GALLERY_COLUMNS := 7
EXAMPLE_MODELS := $(wildcard docs/examples/*.xml)

.PHONY: pictures tutorial-check
pictures: smalti $(BUILD)/tools/contact_sheet tutorial-check twisted-pictures text-pictures
	@for m in $(EXAMPLE_MODELS); do \
	  ./smalti run $$m -q --resources rules -o $${m%.xml}.png || exit 1; echo "$${m%.xml}.png"; done
	@./smalti run models/voronoi_town.xml -q -o docs/images/voronoi_town.png && echo docs/images/voronoi_town.png
	@mkdir -p $(BUILD)/gallery
	@set -e; args=""; for m in $(GALLERY_MODELS); do \
	  tiles=""; [ -f models/resources/tiles/$$m.xml ] && tiles="--tiles models/resources/tiles/$$m.xml"; \
	  ./smalti run models/$$m.xml -q $$tiles -o $(BUILD)/gallery/$$m.png; \
	  args="$$args $(BUILD)/gallery/$$m.png $$m"; done; \
	$(BUILD)/tools/contact_sheet docs/gallery.png $(GALLERY_CELL) $(GALLERY_COLUMNS) $$args
	@echo "docs/gallery.png ($$(wc -c < docs/gallery.png) bytes)"

# language.md's growgrid and chisel pictures: each twisted map beside its straight grid (the flat texture
# that `-o X.obj` writes; for the 3-D building, the model without its last node, growgrid), the module
# building from two seeds (its wfc follows its growgrid, so it has no straight twin), the lattices of
# fixed and free growth on two blobs, and the chiselled dungeon. Run alone with `make twisted-pictures`.
TWISTED_MODELS := twisted_town cave_modules
.PHONY: twisted-pictures
twisted-pictures: smalti
	@mkdir -p $(BUILD)/twisted docs/images/growgrid docs/images/chisel
	@set -e; for m in $(TWISTED_MODELS); do \
	  ./smalti run models/$$m.xml -q -o docs/images/growgrid/$$m.png; \
	  ./smalti run models/$$m.xml -q -o $(BUILD)/twisted/$$m.obj; \
	  cp $(BUILD)/twisted/$${m}_texture.png docs/images/growgrid/$${m}_straight.png; \
	  echo "docs/images/growgrid/$$m.png docs/images/growgrid/$${m}_straight.png"; done
	@./smalti run models/bent_building.xml -q -o docs/images/growgrid/bent_building.png
	@grep -v '<growgrid' models/bent_building.xml > $(BUILD)/twisted/bent_building_straight.xml
	@./smalti run $(BUILD)/twisted/bent_building_straight.xml -q -o docs/images/growgrid/bent_building_straight.png
	@echo "docs/images/growgrid/bent_building.png docs/images/growgrid/bent_building_straight.png"
	@./smalti run models/module_building.xml -q -o docs/images/growgrid/module_building.png
	@./smalti run models/module_building.xml -q --seed 2 -o docs/images/growgrid/module_building_2.png
	@echo "docs/images/growgrid/module_building.png docs/images/growgrid/module_building_2.png"
	@./smalti run models/chisel_dungeon.xml -q -o docs/images/chisel/chisel_dungeon.png
	@set -e; for k in 'fixed block="8"' 'free points="256"'; do \
	  printf '<sequence values="BW">\n  <smalti size="120"/>\n  <growgrid shape="TwoBlobs" %s/>\n</sequence>\n' "$${k#* }" > $(BUILD)/twisted/blobs.xml; \
	  ./smalti run $(BUILD)/twisted/blobs.xml --resources models/resources --seed 3 -q -o $(BUILD)/twisted/blobs.json; \
	  python3 tools/lattice_svg.py $(BUILD)/twisted/blobs.json docs/images/growgrid/blobs_$${k%% *}.svg; \
	  echo "docs/images/growgrid/blobs_$${k%% *}.svg"; done
	@echo "docs/images/chisel/chisel_dungeon.png"

# language.md's showcases of the source texts: docs/images/texts/NAME.png is exactly what
# `./smalti run models/NAME.xml -o X.png` makes, as tests/docs_test.sh checks. Alone: `make text-pictures`.
TEXT_MODELS := cave_tiles island_village runner_world
.PHONY: text-pictures
text-pictures: smalti
	@mkdir -p docs/images/texts
	@set -e; for m in $(TEXT_MODELS); do \
	  ./smalti run models/$$m.xml -q -o docs/images/texts/$$m.png; echo "docs/images/texts/$$m.png"; done

# Each example the tutorial shows is its file, word for word.
tutorial-check:
	@sh tools/check_tutorial.sh docs/tutorial.md

# The sheet maker: stb_image reads the pictures, stb_easy_font draws the labels, and
# stb_image_write writes the sheet (libstb-dev, in DEPS).
$(BUILD)/tools/contact_sheet: tools/contact_sheet.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(WARN) -o $@ $< -lm
