package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// TokenizerName names memgov's deterministic tokenizer, the unit of every
// token budget (spec §15.7).
//
// memgov-words-v1: a token is a maximal run of letters, digits, combining
// marks and underscores, or any other single non-space character (each
// punctuation mark or symbol is its own token); white space separates tokens
// and is not one. "Refund > $1,000." is 7 tokens: Refund > $ 1 , 000 .
const TokenizerName = "memgov-words-v1"

// Distillation limits.
const (
	// MaxTokenBudget is the advertised maxTokenBudget; larger budgets are
	// clamped to it and an absent budget defaults to it.
	MaxTokenBudget = 100000
	// MinSummaryTokens is the smallest summary of one source worth writing:
	// a budget that leaves less per source cannot be met meaningfully.
	MinSummaryTokens = 3
	// DistillationFormat versions the archive and index documents.
	DistillationFormat = "memgov.distillation/v1"
	IndexFormat        = "memgov.memory-index/v1"
)

// ErrTokenBudgetExceeded is returned (wrapped) when a memoryRef cannot be
// distilled within the budget; nothing is written.
var ErrTokenBudgetExceeded = errors.New("token_budget_exceeded")

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_'
}

// Tokens splits s by memgov-words-v1.
func Tokens(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case wordRune(r):
			if start < 0 {
				start = i
			}
			continue
		case start >= 0:
			out = append(out, s[start:i])
			start = -1
		}
		if !unicode.IsSpace(r) {
			out = append(out, string(r))
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// CountTokens counts the memgov-words-v1 tokens of s.
func CountTokens(s string) int {
	n, in := 0, false
	for _, r := range s {
		switch {
		case wordRune(r):
			if !in {
				n++
				in = true
			}
		case unicode.IsSpace(r):
			in = false
		default:
			n++
			in = false
		}
	}
	return n
}

// WordToken reports whether t, a memgov-words-v1 token, is a word (letters,
// digits, marks, underscores) rather than a punctuation mark or symbol.
func WordToken(t string) bool {
	for _, r := range t {
		return wordRune(r)
	}
	return false
}

// clipTokens returns the longest prefix of s with at most n tokens, cut at a
// token boundary and trimmed.
func clipTokens(s string, n int) (string, bool) {
	count, in := 0, false
	for i, r := range s {
		switch {
		case wordRune(r):
			if !in {
				count++
				in = true
			}
		case unicode.IsSpace(r):
			in = false
			continue
		default:
			count++
			in = false
		}
		if count > n {
			return strings.TrimSpace(s[:i]), true
		}
	}
	return strings.TrimSpace(s), false
}

// firstSentence is the text up to its first sentence end or line break.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			return strings.TrimSpace(s[:i+1])
		}
	}
	return strings.TrimSpace(s)
}

// DistillRequest asks for one distillation run over a memoryRef.
type DistillRequest struct {
	MemoryRef string
	Budget    int    // tokens for input + output; 0: MaxTokenBudget; clamped to it
	Actor     string // a registered principal governing the ref's tenant
	RunID     string // whose secrets are redacted again (SR-1), with the global ones
}

// ArchiveSource identifies one distilled entry.
type ArchiveSource struct {
	Key         string `json:"key"`
	ContentHash string `json:"contentHash"`
	Tokens      int    `json:"tokens"`
}

// ArchiveLine is one source's distilled line.
type ArchiveLine struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// Archive is the immutable distillation artifact: canonical JSON with no
// time and no version id in it (sources are named by key and content hash),
// so the same sources and budget give the same bytes and hash, in any
// database.
type Archive struct {
	Format       string          `json:"format"`
	MemoryRef    string          `json:"memoryRef"`
	Tokenizer    string          `json:"tokenizer"`
	TokenBudget  int             `json:"tokenBudget"`
	InputTokens  int             `json:"inputTokens"`
	OutputTokens int             `json:"outputTokens"`
	TokensUsed   int             `json:"tokensUsed"`
	Sources      []ArchiveSource `json:"sources"`
	Summary      []ArchiveLine   `json:"summary"`
	Text         string          `json:"text"`
}

// MemoryIndex is MEMORY-INDEX.json: what the next session loads at start-up.
type MemoryIndex struct {
	Format      string   `json:"format"`
	MemoryRef   string   `json:"memoryRef"`
	Tokenizer   string   `json:"tokenizer"`
	Archive     string   `json:"archive"`     // the latest archive's key
	ArchiveHash string   `json:"archiveHash"` // sha256 of its canonical bytes
	TokensUsed  int      `json:"tokensUsed"`
	Entries     []string `json:"entries"` // the distilled keys
	Text        string   `json:"text"`    // the distilled text
}

// DistillResult reports a distillation run.
type DistillResult struct {
	MemoryRef    string          `json:"memory_ref"`
	Tokenizer    string          `json:"tokenizer"`
	TokenBudget  int             `json:"token_budget"`
	TokensUsed   int             `json:"tokens_used"`
	InputTokens  int             `json:"input_tokens"`
	OutputTokens int             `json:"output_tokens"`
	Sources      int             `json:"sources"`
	ArchiveKey   string          `json:"archive_key"`
	ArchiveHash  string          `json:"archive_hash"`
	ArchiveNew   bool            `json:"archive_written"`
	IndexUpdated bool            `json:"index_updated"`
	Archive      json.RawMessage `json:"-"` // canonical bytes
	Index        json.RawMessage `json:"-"` // canonical bytes of MEMORY-INDEX.json
	LSN          int64           `json:"lsn"`
}

// Distill runs the distillation contract (spec §15.7) over a
// memoryRef: it reads the ACTIVE, unexpired entries (the read snapshot; the
// reserved keys aside), redacts them again (SR-1 carries forward), and
// distils each to its first sentence clipped to an equal share of what the
// budget leaves after the input: input + output tokens never exceed the
// budget. When they cannot (less than MinSummaryTokens per source) it fails
// with ErrTokenBudgetExceeded and writes nothing. The archive is written once
// under distill/<sha256> (content-addressed, immutable, byte-stable), the
// MEMORY-INDEX.json entry of the ref is updated when it changes, and a
// DISTILL entry emits memory.compacted {tokenBudget, tokensUsed,
// indexUpdated}. Everything happens in one transaction.
func (svc *Service) Distill(ctx context.Context, r DistillRequest) (DistillResult, error) {
	res := DistillResult{MemoryRef: r.MemoryRef, Tokenizer: TokenizerName}
	ref, err := scope.Parse(r.MemoryRef)
	if err != nil {
		return res, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	if r.Budget < 0 {
		return res, fmt.Errorf("%w: the token budget must be positive", memgov.ErrInvalid)
	}
	if r.Budget == 0 || r.Budget > MaxTokenBudget {
		r.Budget = MaxTokenBudget
	}
	res.TokenBudget = r.Budget
	red := svc.redactor(r.RunID)
	err = svc.store.Update(ctx, func(tx memgov.Tx) error {
		if err := authz.Require(ctx, tx, r.Actor); err != nil {
			return err
		}
		if _, err := svc.authz.PermitID(ctx, tx, r.Actor, authz.ActDistill, authz.Target{Ref: ref.String()}); err != nil {
			return err
		}
		vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: r.MemoryRef, Now: svc.now()})
		if err != nil {
			return err
		}
		ar := Archive{Format: DistillationFormat, MemoryRef: r.MemoryRef, Tokenizer: TokenizerName, TokenBudget: r.Budget,
			Sources: []ArchiveSource{}, Summary: []ArchiveLine{}}
		var texts []string
		for _, v := range vs {
			if memgov.Reserved(v.Key) {
				continue
			}
			text, err := v.ContentText()
			if err != nil {
				return err
			}
			t := red.String(text)
			n := CountTokens(t)
			ar.Sources = append(ar.Sources, ArchiveSource{Key: v.Key, ContentHash: v.ContentHash, Tokens: n})
			texts = append(texts, t)
			ar.InputTokens += n
		}
		if len(ar.Sources) == 0 {
			return fmt.Errorf("%w: %s has no entries to distill", memgov.ErrInvalid, r.MemoryRef)
		}
		// Each line is "- <summary>": one token for the dash.
		share := (r.Budget - ar.InputTokens) / len(ar.Sources)
		if share-1 < MinSummaryTokens {
			return fmt.Errorf("%w: %d entries of %d tokens need at least %d tokens; the budget is %d",
				ErrTokenBudgetExceeded, len(ar.Sources), ar.InputTokens, ar.InputTokens+len(ar.Sources)*(MinSummaryTokens+1), r.Budget)
		}
		lines := make([]string, len(texts))
		for i, t := range texts {
			s, _ := clipTokens(firstSentence(t), share-1)
			ar.Summary = append(ar.Summary, ArchiveLine{Key: ar.Sources[i].Key, Text: s})
			lines[i] = "- " + s
		}
		ar.Text = strings.Join(lines, "\n")
		ar.OutputTokens = CountTokens(ar.Text)
		ar.TokensUsed = ar.InputTokens + ar.OutputTokens
		if ar.TokensUsed > r.Budget {
			return fmt.Errorf("%w: %d tokens used of %d", ErrTokenBudgetExceeded, ar.TokensUsed, r.Budget)
		}
		raw, err := canon.Marshal(ar)
		if err != nil {
			return err
		}
		if raw, err = redactCanonical(raw, red); err != nil {
			return err
		}
		hash := oplog.HashPayload(raw)
		res.Archive, res.ArchiveHash = raw, hash
		res.ArchiveKey = memgov.ArchivePrefix + strings.TrimPrefix(hash, "sha256:")
		res.InputTokens, res.OutputTokens, res.TokensUsed, res.Sources = ar.InputTokens, ar.OutputTokens, ar.TokensUsed, len(ar.Sources)

		actor := r.Actor
		var archiveItem string
		if item, err := tx.ItemByKey(ctx, r.MemoryRef, res.ArchiveKey); err == nil && item.Head != "" {
			archiveItem = item.ID // immutable: already written
		} else if err != nil && !isNotFound(err) {
			return err
		} else {
			entry, err := svc.writes.AppendVersion(ctx, tx, r.MemoryRef, res.ArchiveKey, memgov.Semantic, raw, []string{"memgov:distillation"}, 1, actor, "distillation archive")
			if err != nil {
				return err
			}
			archiveItem, res.ArchiveNew = entry.ItemID, true
		}

		idx := MemoryIndex{Format: IndexFormat, MemoryRef: r.MemoryRef, Tokenizer: TokenizerName, Archive: res.ArchiveKey,
			ArchiveHash: hash, TokensUsed: ar.TokensUsed, Entries: make([]string, 0, len(ar.Sources)), Text: ar.Text}
		for _, s := range ar.Sources {
			idx.Entries = append(idx.Entries, s.Key)
		}
		idxRaw, err := canon.Marshal(idx)
		if err != nil {
			return err
		}
		if idxRaw, err = redactCanonical(idxRaw, red); err != nil {
			return err
		}
		res.Index = idxRaw
		cur, err := tx.ItemByKey(ctx, r.MemoryRef, memgov.IndexKey)
		same := false
		if err == nil && cur.Head != "" {
			if hv, err := tx.Version(ctx, cur.Head); err == nil && hv.State == memgov.Active && bytes.Equal(hv.Content, idxRaw) {
				same = true
			}
		} else if err != nil && !isNotFound(err) {
			return err
		}
		if !same {
			if _, err := svc.writes.AppendVersion(ctx, tx, r.MemoryRef, memgov.IndexKey, memgov.Semantic, idxRaw, []string{"memgov:memory-index"}, 1, actor, "memory index update"); err != nil {
				return err
			}
			res.IndexUpdated = true
		}
		data, err := json.Marshal(oplog.DistillData{TokenBudget: r.Budget, TokensUsed: ar.TokensUsed, IndexUpdated: res.IndexUpdated,
			ArchiveKey: res.ArchiveKey, ArchiveHash: hash, Sources: len(ar.Sources)})
		if err != nil {
			return err
		}
		entry := &oplog.Entry{Time: svc.now(), Op: oplog.Distill, MemoryRef: r.MemoryRef, ItemID: archiveItem, Actor: actor}
		if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: "distillation", Data: data}); err != nil {
			return err
		}
		res.LSN = entry.LSN
		return nil
	})
	if err != nil {
		return DistillResult{MemoryRef: r.MemoryRef, Tokenizer: TokenizerName, TokenBudget: r.Budget}, err
	}
	return res, nil
}

// redactCanonical redacts a canonical JSON document and canonicalises it again.
func redactCanonical(raw []byte, red interface {
	Empty() bool
	JSON([]byte) ([]byte, error)
}) ([]byte, error) {
	if red.Empty() {
		return raw, nil
	}
	out, err := red.JSON(raw)
	if err != nil {
		return nil, err
	}
	return canon.Canonicalize(out)
}

// requireTenantPrincipal refuses actors that are unknown or do not govern the tenant.
func requireTenantPrincipal(ctx context.Context, tx memgov.ReadTx, actor, tenant string) error {
	if err := authz.Require(ctx, tx, actor); err != nil {
		return err
	}
	p, err := tx.Principal(ctx, actor)
	if err != nil {
		return err
	}
	if !authz.Governs(p, tenant) {
		return fmt.Errorf("%w: rule CTI-1: %s governs tenant %s, not another tenant's memory", memgov.ErrForbidden, actor, p.Tenant)
	}
	return nil
}
