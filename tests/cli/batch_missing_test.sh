#!/bin/sh
# batch_missing_test.sh — a models.xml entry whose model file is not there is reported as that
# (file: error, exit 5), not as a missing size; batch's help example runs. Usage: batch_missing_test.sh ./smalti
T=${1:-./smalti}
. "$(dirname "$0")/lib.sh"

mkdir -p "$dir/l/models"
printf '<models>\n  <model name="gone" amount="1"/>\n</models>\n' > "$dir/l/list.xml"
only 5 "$dir/l/models/gone.xml: error: cannot open the model: No such file or directory
batch: 1 entry, 1 failed" "$T" batch "$dir/l/list.xml" -o "$dir/l/out"
# A model that is there but has no size anywhere is still told so.
printf '<one values="BW" in="B" out="W"/>\n' > "$dir/l/models/nosize.xml"
printf '<models>\n  <model name="nosize" amount="1"/>\n</models>\n' > "$dir/l/list2.xml"
expect 3 "list2.xml:2: error: <model name=\"nosize\"> needs a positive size" "$T" batch "$dir/l/list2.xml" -o "$dir/l/out"
# The bundled list, as `smalti help batch` shows it (one entry, to stay quick).
expect 0 'smalti batch models/models.xml --seed 1' "$T" help batch
# (pipes reads its tileset from models/resources/, a default root: the resources beside the model)
printf '<models>\n  <model name="pipes" amount="1"/>\n</models>\n' > "$dir/bundled.xml"
expect 0 'pipes_.*steps' "$T" batch "$dir/bundled.xml" --models models --seed 1 -o "$dir/b"
finish batch-missing
