# citations.sed: rewrites the older citation forms in memgov's Go comments into
# citations of docs/spec.md ("spec §12.1.7", "spec §3.2.6.2", "spec §14.4").
# CTI-1 and SR-1 are already the spec's names and are left alone, as are
# citations of public RFCs (RFC 8785, RFC 9162, RFC 3339, ...).
#
# GNU sed, extended regular expressions. Two ways to apply it:
#
#   go run docs/citations.go -w $(git ls-files '*.go')     # comments only (preferred)
#   sed -E -i -f docs/citations.sed FILE...                # whole lines, strings too
#
# The driver feeds whole source lines so that rules can look at the code beside a
# comment, and keeps a result only where the code before the comment is unchanged.
# Every rule keeps the number of lines: a two-line form is joined with N and split
# again at the same newline.

# --- Two-line forms: a citation broken at the end of a comment line.
/(\(seed|seed 00[0-4],?)$/{
  N
  s/\(seed\n([[:space:]]*\/\/[[:space:]]*)002, RFC 0080 §A\)/(spec\n\1§15.11)/
  s/\(seed 002,\n([[:space:]]*\/\/[[:space:]]*)"Memory capability model"\)/(spec §15.6,\n\1"Memory capability model")/
  s/seed 003,?\n([[:space:]]*\/\/[[:space:]]*)section ([0-9]+)/spec\n\1§13.\2/
  s/seed 004\n([[:space:]]*\/\/[[:space:]]*)write criteria\)/spec §14.2\n\1write criteria)/
  s/seed 004\n([[:space:]]*\/\/[[:space:]]*)PROVENANCE_LEVELS\)/spec §14.4\n\1trust levels)/
}

# --- Paragraphs that describe the old sources, rewritten line for line.
s|^// Section numbers in comments \(12\.x\.y\) refer to chapter 12 of seed 001, "Memory$|// Section numbers in comments (spec §12.x.y) refer to docs/spec.md: chapter|
s|^// Write Policies, Validation, and Governance"\. "Seed 000" is the agent-manifest$|// 12 is the governed write path, §3.2.6 the agent-manifest baseline binding,|
s|^// memory baseline binding \(3\.2\.6\), "seed 003" the memory primitives template$|// chapter 13 the memory primitives, chapter 14 the practitioner's rules|
s|^// and "seed 004" the practitioner's layer \(write criteria, TTLs, provenance$|// (write criteria, TTLs per observation type, provenance trust levels,|
s|^// trust levels, confidence decay\)\. Where a seed gives no number, the default is$|// confidence decay) and chapter 15 the host memory contract. Where the spec|
s|^// memgov's own and its comment says so\.$|// marks a number as a memgov default, its comment says so.|
s|^// and table of the specification's seeds as defaults an operator's file can$|// and table of docs/spec.md as defaults an operator's file can|
s|^// Default returns the policy of the seeds\. Each number names the section it$|// Default returns the policy of docs/spec.md. Each number names the spec section|
s|^// comes from; numbers the seeds leave open are memgov's and say so\.$|// it comes from; numbers the spec marks as memgov defaults say so.|
s|the seeds' defaults overlaid with an|the spec's defaults overlaid with an|

# --- "Seed 00N" at the start of a sentence: mark it (\x02) and capitalise the
# "spec" that replaces it at the end.
s/Seed (00[0-4])/\x02seed \1/g

# --- Remarks about what the old sources left open: true of them, not of the spec,
# which states memgov's numbers.
s/[;,] the seed gives none//g
s/12\.1\.8 defines limit\(a, l\) but gives no numbers; these are/12.1.8 limit(a, l): these are/
s/12\.2\.5 requires w_s \+ w_f \+ w_c = 1 and gives no values\./12.2.5 weights, w_s + w_f + w_c = 1: memgov defaults./
s/12\.4\.6 gives the gammas no values\./12.4.6 gammas: memgov defaults./
s/12\.2\.3 leaves lambda open; memgov defaults/12.2.3 lambda (per-layer half-lives): memgov defaults/
s/seed 003 section 12 asks for per-tier budgets without numbers\./spec §13.12 per-tier token budgets./
s/; 12\.6\.2 gives none, /; /g
s/12\.6\.2 counts consumers without a scale/12.6.2 blast-radius saturation/
s/12\.12\.5 only asks MCI > 0/12.12.7 MCI target/
s/12\.10\.3 names no regions/12.10.3 store region/
s/\(12\.8\.2 does not name it\)/(12.8.2, memgov's addition)/
s/12\.8\.2 does not name it\./12.8.2 lists it as memgov's addition./
s/the operator row is memgov's, not 12\.8\.2's\./the operator row is memgov's addition to 12.8.2./
s/memgov default; seed 004 runs decay "over time" without a period/memgov default (spec §14.7)/

# --- The host memory contract (chapter 15).
/[Cc]onsolidat/s/seed 002, RFC 0068/spec §15.8/
/[Cc]ommitment/s/seed 002, RFC 0068/spec §15.9/
s/seed 002, RFC 0062/spec §15.7/g
s/seed 002, RFC 0096/spec §15.12/g
s/seed 002, "MemoryAdapter interface"/spec §15.2/g
s/seed 002, "Scheduled distillation"/spec §15.7/g
s/seed 002, "Memory capability model"/spec §15.6/g
s/archives, seed 002\)/archives, spec §15.7)/g
s/RFC 0080 §A/spec §15.6/g
s/RFC 0080 dimension/spec §15.6 dimension/g
s/RFC 0048 owner/spec §15.12 owner/g

# --- Memory primitives (chapter 13: section N is §13.N).
s/seed 003,? sections ([0-9]+) and ([0-9]+)/spec §13.\1 and §13.\2/g
s/seed 003,? section ([0-9]+)/spec §13.\1/g
s/; section 8: semantic/; §13.8: semantic/
s/seed 003 audit/spec §13.16 audit/g
s/seed 003,? ("no hard DELETE")/spec §13.16, \1/g
s/seed 003: (no hard delete|soft)/spec §13.16: \1/g
s/seed 003 RRF k/spec §13.5 RRF k/g

# --- Practitioner's rules (chapter 14).
s/seed 004 MemoryWritePolicy: WRITE_CRITERIA with default deny, and ttl_for/spec §14.2, §14.3: write criteria with default deny, and TTLs per type/g
s/seed 004: PROVENANCE_LEVELS,/spec §14.4, §14.5: trust levels,/g
s/seed 004 PROVENANCE_LEVELS\.get\(source, 0\.5\)/spec §14.4 (any other source: 0.5)/g
s/seed 004 PROVENANCE_LEVELS/spec §14.4/g
s/seed 004 WRITE_CRITERIA \(True entries\)/spec §14.2 (admitted types)/g
s/seed-004 write criteria/spec §14.2 write criteria/g
s/seed 004's criteria/spec §14.2's criteria/g
s/placed by seed 004's/placed by spec §14.1's/g
s/seed 004 KeyValueMemory\.read/spec §14.5/g
s/seed 004 MemoryWritePolicy\.ttl_for/spec §14.3/g
s/seed 004 ttl_for/spec §14.3/g
s/seed 004 None: permanent until corrected/spec §14.3: permanent until corrected/g
s/seed 004 (86400 \* [0-9]+)/spec §14.3 \1/g
s/seed 004 needs_verification/spec §14.4 needs_verification/g
s/seed 004 ("if confidence < 0\.7")/spec §14.4 \1/g
s/seed 004 decay_confidences/spec §14.7/g
s/seed 004 decay_rate/spec §14.7 rate/g
s/seed 004 ("if new_confidence < 0\.3: delete")/spec §14.7 \1/g
s/seed 004, "Confidence decay"/spec §14.7/g
s/seed 004, "Memory lifecycle: write criteria"/spec §14.2/g
s/seed 004 InContextMemory max_tokens/spec §14.9 max_tokens/g
s/seed 004 guards/spec §14.8/g
s/seed 004 scopes/spec §14.1 scopes/g
s/seed 004 agent_inferred/spec §14.4 agent_inferred/g
/"(user_stated|tool_verified|agent_inferred|recalled)"/s/seed 004/spec §14.4/g
/trust level/s/seed 004/spec §14.4/g
/acts on it/s/seed 004/spec §14.4/g
/low confidence/s/seed 004/spec §14.8/g
/write criteria/s/seed 004/spec §14.2/g

# --- Bare section numbers of chapters 12 and 3 (12.8.2, 12.12, 3.2.6.2, ...):
# mark each with \x01, let a source prefix take the mark, continue lists, and give
# the first of each list its "spec".
s/(^|[^0-9.§A-Za-z_\x01-])(12\.[0-9]{1,2}(\.[0-9]{1,2})?|3\.2\.[67](\.[0-9])?)([^0-9]|$)/\1\x01\2\5/g
s/(^|[^0-9.§A-Za-z_\x01-])(12\.[0-9]{1,2}(\.[0-9]{1,2})?|3\.2\.[67](\.[0-9])?)([^0-9]|$)/\1\x01\2\5/g
s/(seed 00[01],? |seed |agent-manifest (v0\.2 )?(section )?|section )\x01/spec §/g
:list
s/((§|\x01)[0-9][0-9.]*[0-9](, |,| and | or ))\x01/\1§/
t list
s/\x01/spec §/g

# --- The baseline binding (§3.2.6) and the remaining source names.
s/seed 000 v0\.2 delta checkpoints/spec §3.2.6.2 delta checkpoints/g
s/seed 000/spec §3.2.6/g
s/seed 001,? ?/spec §12 /g
s/seed 002/spec §15/g
s/seed 003/spec §13/g
s/seed 004/spec §14/g
s/RFC 0062/spec §15.7/g
s/RFC 0057/spec §15.10/g
s/RFC 0096/spec §15.12/g
s/RFC 0080/spec §15.6/g
s/RFC 0048/spec §15.12/g

# --- Capitalise what replaced a capitalised "Seed".
s/\x02spec/Spec/g
s/\x02//g
