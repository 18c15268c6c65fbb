#!/usr/bin/env python3
"""Writes retrieval_squad.jsonl, the retrieval test corpus of engine/search.

Input: a copy of the SQuAD 2.0 training split (train-v2.0.json). The first
PARAGRAPHS paragraphs in file order are split into sentences; each sentence is
a passage (a memory entry). Every answerable question of those paragraphs is
kept, with the sentence(s) its first answer lies in as its evidence.

    python3 build_retrieval.py path/to/train-v2.0.json > retrieval_squad.jsonl
"""
import json
import re
import sys

PARAGRAPHS = 100
LICENCE = "CC BY-SA 4.0"
# A sentence ends at . ! or ? followed by white space and a capital, a digit
# or an opening quote or bracket.
END = re.compile(r'(?<=[.!?])\s+(?=[A-Z0-9"\u201c(])')


def sentences(context):
    """(start, end) offsets of the sentences of context."""
    out, start = [], 0
    for m in END.finditer(context):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(context)))
    return [(s, e) for s, e in out if context[s:e].strip()]


def main(path):
    data = json.load(open(path, encoding="utf-8"))["data"]
    seen = 0
    n = 0
    for article in data:
        for pi, para in enumerate(article["paragraphs"]):
            if seen == PARAGRAPHS:
                return
            seen += 1
            ctx = para["context"]
            ids = []
            spans = sentences(ctx)
            for si, (s, e) in enumerate(spans):
                n += 1
                pid = "s%04d" % n
                ids.append(pid)
                print(json.dumps({"kind": "passage", "id": pid, "text": ctx[s:e].strip(),
                                  "source": "SQuAD 2.0 train, article %r, paragraph %d, sentence %d" % (article["title"], pi, si),
                                  "licence": LICENCE}, ensure_ascii=False))
            for qa in para["qas"]:
                if qa.get("is_impossible") or not qa["answers"]:
                    continue
                a = qa["answers"][0]
                lo, hi = a["answer_start"], a["answer_start"] + len(a["text"])
                ev = [ids[i] for i, (s, e) in enumerate(spans) if s < hi and lo < e]
                if not ev:
                    continue
                print(json.dumps({"kind": "question", "id": qa["id"], "question": qa["question"].strip(), "evidence": ev,
                                  "source": "SQuAD 2.0 train, question %s" % qa["id"], "licence": LICENCE}, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
