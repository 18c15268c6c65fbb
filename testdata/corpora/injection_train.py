#!/usr/bin/env python3
"""Writes testdata/corpora/injection_train.jsonl, the training set of the
content policy's learned model (engine/guard/model, trained by
`go run ./tools/guardtrain`).

Only public TRAINING splits, selected without looking at the text:
- injection: every attack of BIPIA's training attack files
  (benchmark/text_attack_train.json, benchmark/code_attack_train.json),
  github.com/microsoft/BIPIA at commit 1a2a91da6bb12838e05d1b2e54d98e2f37b835f3,
  MIT licence. BIPIA's test attack files are not read.
- benign: BIPIA's training contexts of the e-mail, table and code tasks
  (benchmark/{email,table,code}/train.jsonl; the first 50 records of each),
  same commit and licence (the code contexts are Stack Overflow posts,
  CC BY-SA 4.0).
The trainer adds benign texts that are already in this folder, all from
training splits: the SQuAD 2.0 train passages of retrieval_squad.jsonl,
the SNLI train sentences of snli_train_sample.tsv and the CaSiNo train
turns of chat.jsonl (chat_heldout.jsonl is kept out, for measurement).

Run from the repository root with BIPIA fetched where BIPIA points:
python3 testdata/corpora/injection_train.py
"""
import json
import os
import subprocess

BIPIA = os.environ.get("BIPIA", "/work/.mirror/microsoft+BIPIA/repo")
COMMIT = "1a2a91da6bb12838e05d1b2e54d98e2f37b835f3"
LIC = "MIT (BIPIA)"


def show(path):
    return subprocess.run(["git", "--git-dir", BIPIA, "show", COMMIT + ":" + path],
                          check=True, capture_output=True).stdout.decode("utf-8-sig")


out = open(os.path.join("testdata", "corpora", "injection_train.jsonl"), "w", encoding="utf-8")


def write(text, label, path, row, extra=None):
    src = {"dataset": "BIPIA", "split": "train", "file": path, "row": row}
    if extra:
        src.update(extra)
    lic = LIC if path != "benchmark/code/train.jsonl" else "MIT (BIPIA); Stack Overflow text CC BY-SA 4.0"
    out.write(json.dumps({"kind": "injection", "text": text, "label": label, "source": src, "licence": lic},
                         ensure_ascii=False) + "\n")


for path in ("benchmark/text_attack_train.json", "benchmark/code_attack_train.json"):
    attacks = json.loads(show(path))
    row = 0
    for category, texts in attacks.items():
        for t in texts:
            write(t, "injection", path, row, {"category": category})
            row += 1

for path in ("benchmark/email/train.jsonl", "benchmark/table/train.jsonl", "benchmark/code/train.jsonl"):
    for row, line in enumerate(show(path).splitlines()[:50]):
        ctx = json.loads(line)["context"]
        if isinstance(ctx, list):
            ctx = "\n".join(ctx)
        # The model reads the first 2,000 characters of a text; longer
        # contexts (tables) are cut there.
        write(ctx.strip()[:2000], "benign", path, row)
out.close()
