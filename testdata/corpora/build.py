"""Builds the memgov judgement corpora (contradiction.jsonl, duplicate.jsonl,
injection.jsonl) from the sources listed in README.md.

Selection is mechanical: the first N records of each source, in file order,
that carry the wanted label, with no look at the text. Run from this folder
with BIPIA and MRPC checked out where the constants below point.
"""
import json, os, sys

BIPIA = os.environ.get("BIPIA", "/work/.mirror/microsoft+BIPIA/repo")
MRPC = os.environ.get("MRPC", "/work/.mirror/a389965626+Sick-/repo")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import memgov_records as M
import subprocess

def git_show(repo, path):
    return subprocess.run(["git", "--git-dir", os.path.join(repo, ".git") if os.path.isdir(os.path.join(repo, ".git")) else repo, "show", "HEAD:" + path],
                          check=True, capture_output=True).stdout.decode("utf-8-sig")

SNLI_LIC = "CC BY-SA 4.0"
MEMGOV = lambda i: {"dataset": "memgov", "split": "hand-written", "file": "memgov_records.py", "row": i}
MEMGOV_LIC = "memgov (same terms as the repository)"

def snli_rows():
    # Rows of the SNLI training split (Hugging Face stanfordnlp/snli "train",
    # labels 0 entailment, 1 neutral, 2 contradiction), as sampled in the file
    # data/nli/calibration/snli_calibration_800_sources.jsonl of
    # github.com/VinylLee/snli-nllb-back-translation; copied here in file order.
    rows = []
    for line in open("snli_train_sample.tsv", encoding="utf-8"):
        idx, label, p, h = line.rstrip("\n").split("\t")
        rows.append((int(idx), int(label), p, h))
    return rows

def snli_src(idx):
    return {"dataset": "SNLI 1.0", "split": "train", "file": "snli_train_sample.tsv (from VinylLee/snli-nllb-back-translation data/nli/calibration/snli_calibration_800_sources.jsonl)", "row": idx}

def contradiction():
    out = []
    for i, (a, b) in enumerate(M.CONTRADICTION):
        out.append({"kind": "contradiction", "a": a, "b": b, "label": "contradiction", "source": MEMGOV("CONTRADICTION[%d]" % i), "licence": MEMGOV_LIC})
    for i, (a, b) in enumerate(M.COMPATIBLE):
        out.append({"kind": "contradiction", "a": a, "b": b, "label": "compatible", "source": MEMGOV("COMPATIBLE[%d]" % i), "licence": MEMGOV_LIC})
    nc = nn = 0
    for idx, label, p, h in snli_rows():
        if label == 2 and nc < 60:
            nc += 1
            out.append({"kind": "contradiction", "a": p, "b": h, "label": "contradiction", "source": snli_src(idx), "licence": SNLI_LIC})
        elif label != 2 and nn < 60:
            nn += 1
            out.append({"kind": "contradiction", "a": p, "b": h, "label": "compatible", "source": snli_src(idx), "licence": SNLI_LIC})
    return out

def mrpc_rows():
    text = git_show(MRPC, "msr_paraphrase_train.txt")
    rows = []
    for n, line in enumerate(text.splitlines()):
        f = line.split("\t")
        if n == 0 and not f[0].strip().isdigit():
            continue
        if len(f) != 5:
            continue
        rows.append((int(f[0]), f[1], f[2], f[3], f[4]))
    return rows

MRPC_LIC = "Microsoft Research Paraphrase Corpus licence (free for research use; see README)"

def mrpc_src(id1, id2):
    return {"dataset": "MRPC (Microsoft Research Paraphrase Corpus)", "split": "train", "file": "msr_paraphrase_train.txt", "row": "%s-%s" % (id1, id2)}

def duplicate():
    out = []
    for i, (a, b) in enumerate(M.DUPLICATE):
        out.append({"kind": "duplicate", "a": a, "b": b, "label": "duplicate", "source": MEMGOV("DUPLICATE[%d]" % i), "licence": MEMGOV_LIC})
    for i, (a, b) in enumerate(M.DISTINCT):
        out.append({"kind": "duplicate", "a": a, "b": b, "label": "distinct", "source": MEMGOV("DISTINCT[%d]" % i), "licence": MEMGOV_LIC})
    nd = nx = 0
    for q, id1, id2, a, b in mrpc_rows():
        if q == 1 and nd < 120:
            nd += 1
            out.append({"kind": "duplicate", "a": a, "b": b, "label": "duplicate", "source": mrpc_src(id1, id2), "licence": MRPC_LIC})
        elif q == 0 and nx < 120:
            nx += 1
            out.append({"kind": "duplicate", "a": a, "b": b, "label": "distinct", "source": mrpc_src(id1, id2), "licence": MRPC_LIC})
    out += word_swaps()
    return out

def word_swaps():
    # Appended after the MRPC rows, so the file's earlier rows keep their
    # order; the first-look split is marked by its split name.
    out = []
    for i, (a, b) in enumerate(M.WORD_SWAP):
        out.append({"kind": "duplicate", "a": a, "b": b, "label": "distinct", "source": MEMGOV("WORD_SWAP[%d]" % i), "licence": MEMGOV_LIC})
    first = lambda i: {"dataset": "memgov", "split": "first-look", "file": "memgov_records.py", "row": i}
    for i, (a, b) in enumerate(M.FIRST_LOOK_DUPLICATE):
        out.append({"kind": "duplicate", "a": a, "b": b, "label": "duplicate", "source": first("FIRST_LOOK_DUPLICATE[%d]" % i), "licence": MEMGOV_LIC})
    for i, (a, b) in enumerate(M.FIRST_LOOK_DISTINCT):
        out.append({"kind": "duplicate", "a": a, "b": b, "label": "distinct", "source": first("FIRST_LOOK_DISTINCT[%d]" % i), "licence": MEMGOV_LIC})
    return out

# BIPIA task-hijack categories whose attack texts are plain user tasks (a
# question or request that names neither the assistant nor its output):
# stored as a memory they are indistinguishable from a user's own note, so
# the whole categories are left out; every other training category is kept.
BIPIA_TASK_CATEGORIES = {"Information Retrieval", "Content Creation", "Learning and Tutoring", "Language Translation", "Programming Help"}
BIPIA_LIC = "MIT (microsoft/BIPIA)"

def injection():
    out = []
    for i, t in enumerate(M.INJECTION):
        out.append({"kind": "injection", "text": t, "label": "injection", "source": MEMGOV("INJECTION[%d]" % i), "licence": MEMGOV_LIC})
    for f in ("benchmark/text_attack_train.json", "benchmark/code_attack_train.json"):
        d = json.loads(git_show(BIPIA, f))
        for cat, texts in d.items():
            if cat in BIPIA_TASK_CATEGORIES:
                continue
            for j, t in enumerate(texts):
                out.append({"kind": "injection", "text": t, "label": "injection", "source": {"dataset": "BIPIA", "split": "train", "file": f, "row": "%s/%d" % (cat, j)}, "licence": BIPIA_LIC})
    for i, t in enumerate(M.BENIGN):
        out.append({"kind": "injection", "text": t, "label": "benign", "source": MEMGOV("BENIGN[%d]" % i), "licence": MEMGOV_LIC})
    for n, line in enumerate(git_show(BIPIA, "benchmark/email/train.jsonl").splitlines()):
        ctx = json.loads(line)["context"]
        out.append({"kind": "injection", "text": ctx, "label": "benign", "source": {"dataset": "BIPIA (email QA contexts)", "split": "train", "file": "benchmark/email/train.jsonl", "row": n}, "licence": BIPIA_LIC})
    seen = set()
    k = 0
    for idx, label, p, h in snli_rows():
        if p in seen or k >= 60:
            continue
        seen.add(p)
        k += 1
        out.append({"kind": "injection", "text": p, "label": "benign", "source": snli_src(idx), "licence": SNLI_LIC})
    k = 0
    for q, id1, id2, a, b in mrpc_rows():
        if k >= 40:
            break
        k += 1
        out.append({"kind": "injection", "text": a, "label": "benign", "source": mrpc_src(id1, id2), "licence": MRPC_LIC})
    return out

def write(name, recs):
    with open(name, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    from collections import Counter
    print(name, dict(Counter(r["label"] for r in recs)))

os.chdir(os.path.dirname(os.path.abspath(__file__)))
if sys.argv[1:] == ["--append-word-swaps"]:
    # Without the MRPC and BIPIA checkouts: append the hand-written word
    # swaps and the first-look split to an existing duplicate.jsonl.
    with open("duplicate.jsonl", encoding="utf-8") as f:
        recs = [json.loads(l) for l in f if l.strip()]
    recs = [r for r in recs if not (r["source"].get("dataset") == "memgov" and (str(r["source"].get("row", "")).startswith(("WORD_SWAP", "FIRST_LOOK"))))]
    write("duplicate.jsonl", recs + word_swaps())
    sys.exit(0)
write("contradiction.jsonl", contradiction())
write("duplicate.jsonl", duplicate())
write("injection.jsonl", injection())
