"""Builds chat.jsonl: ordinary two-person conversation turns, for measuring
how the gates treat a chat agent that writes one turn a memory.

Source: CaSiNo (Chawla et al. 2021, NAACL), TRAIN split only:
data/split/casino_train.json of github.com/kushalchawla/CaSiNo (commit
2f6ed4a6a55110152a7699fbaa8150d6036314be; the repository's LICENSE is
Creative Commons Attribution 4.0 International). CaSiNo's dialogues are
typed chats between two crowd workers, campsite neighbours who greet each
other, talk about their trip, their families and needs, and agree how to
share food, water and firewood. The release's valid and test splits are
not used.

Selection is mechanical: the first DIALOGUES dialogues in file order, every
spoken turn, no look at the text. The deal actions the chat interface
records as turns (the exact texts Submit-Deal, Accept-Deal, Reject-Deal and
Walk-Away) are buttons, not words, and are left out. Whitespace runs are
collapsed to one space; nothing else is changed.

Each group of SESSION consecutive dialogues is one conversation between the
same two people (named from a fixed list, in order; mturk_agent_1 is the
first name, mturk_agent_2 the second), as a chat agent that keeps one memory
of its talks with them would see it.

    python3 build_chat.py PATH/TO/casino_train.json > chat.jsonl

chat_heldout.jsonl is built the same way from the next dialogues of the
same training split, 250 to 499, which the rules were not written from:

    python3 build_chat.py PATH/TO/casino_train.json 250 500 > chat_heldout.jsonl
"""
import json, re, sys

DIALOGUES = 250
SESSION = 8
NAMES = ["Maya", "Tom", "Aisha", "Ben", "Lena", "Omar", "Sofia", "Raj", "Nora", "Felix",
         "Ines", "Kenji", "Clara", "Diego", "Hana", "Lukas", "Zoe", "Amir", "Eva", "Jonas"]
ACTIONS = {"Submit-Deal", "Accept-Deal", "Reject-Deal", "Walk-Away"}
LIC = "CC BY 4.0 (CaSiNo)"

def main(path, start=0, end=DIALOGUES):
    dialogues = json.load(open(path, encoding="utf-8"))
    for d, dlg in enumerate(dialogues[start:end]):
        conv = d // SESSION
        names = {"mturk_agent_1": NAMES[(2 * conv) % len(NAMES)],
                 "mturk_agent_2": NAMES[(2 * conv + 1) % len(NAMES)]}
        k = 0
        for u, t in enumerate(dlg["chat_logs"]):
            text = re.sub(r"\s+", " ", t["text"]).strip()
            if text in ACTIONS or not text:
                continue
            rec = {"kind": "chat", "conversation": conv, "turn": k,
                   "speaker": names[t["id"]], "text": text,
                   "source": {"dataset": "CaSiNo", "split": "train",
                              "dialogue_id": dlg["dialogue_id"], "utterance": u},
                   "licence": LIC}
            print(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
            k += 1

if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:4]))
