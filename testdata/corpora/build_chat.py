"""Builds chat.jsonl: ordinary two-person conversation turns, for measuring
how the gates treat a chat agent that writes one turn a memory.

Source: DailyDialog (Li et al. 2017), TRAIN split only
(train/dialogues_train.txt inside data/train.zip of the DailyDialog release,
as found in github.com/Ls-Dai/Deep-Reinforcement-Learning-for-Dialogue-Generation-in-PyTorch).
Selection is mechanical: the first DIALOGUES dialogues in file order, every
turn, no look at the text. The text is detokenised (the release puts spaces
before punctuation); nothing else is changed.

Each group of SESSION consecutive dialogues is one conversation between the
same two people (named from a fixed list, in order), as a chat agent that
keeps one memory of its talks with them would see it.

    python3 build_chat.py PATH/TO/dialogues_train.txt > chat.jsonl
"""
import json, re, sys

DIALOGUES = 400
SESSION = 8
NAMES = ["Maya", "Tom", "Aisha", "Ben", "Lena", "Omar", "Sofia", "Raj", "Nora", "Felix",
         "Ines", "Kenji", "Clara", "Diego", "Hana", "Lukas", "Zoe", "Amir", "Eva", "Jonas"]
LIC = "CC BY-NC-SA 4.0 (DailyDialog)"

def detok(s):
    s = s.strip()
    s = re.sub(r"\s+([,.!?;:%)])", r"\1", s)
    s = re.sub(r"([(])\s+", r"\1", s)
    s = re.sub(r"\s+'\s*(s|re|ve|ll|d|m|t)\b", r"'\1", s)
    s = re.sub(r"\s+n't\b", "n't", s)
    s = re.sub(r"\s*’\s*", "’", s)
    s = re.sub(r"\s{2,}", " ", s)
    return s

def main(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    for d, line in enumerate(lines[:DIALOGUES]):
        conv = d // SESSION
        a = NAMES[(2 * conv) % len(NAMES)]
        b = NAMES[(2 * conv + 1) % len(NAMES)]
        turns = [t for t in line.split("__eou__") if t.strip()]
        for k, t in enumerate(turns):
            rec = {"kind": "chat", "conversation": conv, "turn": k,
                   "speaker": a if k % 2 == 0 else b, "text": detok(t),
                   "source": {"dataset": "DailyDialog", "split": "train", "row": d + 1},
                   "licence": LIC}
            print(json.dumps(rec, ensure_ascii=False))

if __name__ == "__main__":
    main(sys.argv[1])
