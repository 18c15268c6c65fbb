#!/usr/bin/env python3
"""Writes the content policy's first-look splits as bench corpora.

engine/guard/testdata/firstlook*_{hostile,benign}.txt hold one text per
line (escapes \\n, \\t, \\r, \\\\, \\xHH, \\uHHHH, \\UHHHHHHHH; "# " lines are
comments, "# family: NAME" names the family of the lines after it, and
"# layer: LAYER" the layer they are written to, up to the next family
line; such records carry a "layer" field). This
script writes each split as testdata/corpora/injection_<split>.jsonl in the
format of injection.jsonl, for `memgov bench gates`. Run it from the
repository root: python3 testdata/corpora/injection_splits.py
"""
import json
import os
import re

SPLITS = {"firstlook": "firstlook", "firstlook2": "firstlook2", "firstlook3": "firstlook3", "firstlook4": "firstlook4", "firstlook5": "firstlook5", "firstlook6": "firstlook6", "firstlook7": "firstlook7", "firstlook8": "firstlook8", "firstlook9": "firstlook9", "firstlook10": "firstlook10", "firstlook11": "firstlook11", "firstlook12": "firstlook12", "firstlook13": "firstlook13", "firstlook14": "firstlook14", "firstlook15": "firstlook15", "firstlook16": "firstlook16", "firstlook17": "firstlook17", "firstlook18": "firstlook18", "firstlook19": "firstlook19", "firstlook20": "firstlook20", "firstlook21": "firstlook21", "firstlook22": "firstlook22", "firstlook23": "firstlook23", "firstlook24": "firstlook24", "firstlook25": "firstlook25", "firstlook26": "firstlook26", "firstlook27": "firstlook27", "firstlook28": "firstlook28", "firstlook29": "firstlook29", "firstlook30": "firstlook30", "firstlook31": "firstlook31", "firstlook32": "firstlook32", "firstlook33": "firstlook33", "firstlook34": "firstlook34", "firstlook35": "firstlook35", "firstlook36": "firstlook36", "firstlook37": "firstlook37", "firstlook38": "firstlook38", "firstlook39": "firstlook39", "firstlook40": "firstlook40", "firstlook41": "firstlook41", "firstlook42": "firstlook42", "firstlook43": "firstlook43", "firstlook44": "firstlook44", "firstlook45": "firstlook45", "firstlook46": "firstlook46", "firstlook47": "firstlook47", "firstlook48": "firstlook48", "firstlook49": "firstlook49", "firstlook50": "firstlook50", "firstlook51": "firstlook51", "firstlook52": "firstlook52", "firstlook53": "firstlook53", "firstlook54": "firstlook54", "firstlook55": "firstlook55", "firstlook56": "firstlook56", "firstlook57": "firstlook57", "firstlook58": "firstlook58", "firstlook59": "firstlook59", "firstlook60": "firstlook60", "firstlook61": "firstlook61", "firstlook62": "firstlook62", "firstlook63": "firstlook63", "firstlook64": "firstlook64", "firstlook65": "firstlook65", "firstlook66": "firstlook66", "firstlook67": "firstlook67", "firstlook68": "firstlook68", "firstlook69": "firstlook69", "firstlook70": "firstlook70", "firstlook71": "firstlook71", "firstlook72": "firstlook72", "firstlook73": "firstlook73", "firstlook74": "firstlook74", "firstlook75": "firstlook75", "firstlook76": "firstlook76", "firstlook77": "firstlook77", "firstlook78": "firstlook78", "firstlook79": "firstlook79", "firstlook80": "firstlook80", "firstlook81": "firstlook81", "firstlook82": "firstlook82", "firstlook83": "firstlook83", "firstlook84": "firstlook84", "firstlook85": "firstlook85", "firstlook86": "firstlook86", "firstlook87": "firstlook87", "firstlook88": "firstlook88", "firstlook89": "firstlook89", "firstlook90": "firstlook90", "firstlook91": "firstlook91", "firstlook92": "firstlook92", "firstlook93": "firstlook93", "firstlook94": "firstlook94", "firstlook95": "firstlook95", "firstlook96": "firstlook96", "firstlook97": "firstlook97", "firstlook98": "firstlook98", "firstlook99": "firstlook99", "firstlook100": "firstlook100", "firstlook101": "firstlook101", "firstlook102": "firstlook102", "firstlook103": "firstlook103", "firstlook104": "firstlook104", "firstlook105": "firstlook105", "firstlook106": "firstlook106", "firstlook107": "firstlook107", "firstlook108": "firstlook108", "firstlook109": "firstlook109", "firstlook110": "firstlook110", "firstlook111": "firstlook111", "firstlook112": "firstlook112", "firstlook113": "firstlook113", "firstlook114": "firstlook114", "firstlook115": "firstlook115", "firstlook116": "firstlook116", "firstlook117": "firstlook117", "firstlook118": "firstlook118", "firstlook119": "firstlook119", "firstlook120": "firstlook120", "firstlook121": "firstlook121"}
SRC = os.path.join("engine", "guard", "testdata")
ESC = re.compile(r"\\(n|t|r|\\|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")


def decode(s):
    def rep(m):
        e = m.group(1)
        return {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(e) or chr(int(e[1:], 16))
    return ESC.sub(rep, s)


def read(path):
    family, layer = "-", ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# family: "):
                family, layer = line[len("# family: "):].strip(), ""
                continue
            if line.startswith("# layer: "):
                layer = line[len("# layer: "):].strip()
                continue
            if not line.strip() or line.startswith("# "):
                continue
            yield family, layer, decode(line)


for split, stem in SPLITS.items():
    hostile = os.path.join(SRC, stem + "_hostile.txt")
    if not os.path.exists(hostile):
        continue
    out = os.path.join("testdata", "corpora", "injection_%s.jsonl" % split)
    with open(out, "w", encoding="utf-8") as w:
        for label, name in (("injection", "_hostile.txt"), ("benign", "_benign.txt")):
            path = os.path.join(SRC, stem + name)
            for row, (family, layer, text) in enumerate(read(path)):
                rec = {"kind": "injection", "text": text, "label": label, "family": family}
                if layer:
                    rec["layer"] = layer
                rec["source"] = {"dataset": "memgov", "split": split, "file": path, "row": row}
                rec["licence"] = "memgov (same terms as the repository)"
                w.write(json.dumps(rec, ensure_ascii=False) + "\n")
