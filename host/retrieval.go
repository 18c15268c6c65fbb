package host

import (
	"context"
	"strconv"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
)

// This file makes reads feed memory's life (spec §14, spec §12.7.2, §12.12.4): every
// read through a MemoryAdapter records an access for each entry it returns
// (n_access of relevance decay) and a retrieval (staleness at retrieval, and
// with `memgov feedback` the retrieval precision and impact(m)), in one write
// transaction per read call. Each returned entry carries what a reader must
// know before acting on it: the trust level of its source, a stale warning,
// and the needs-verification flag of a low-confidence entry.

// ReadNote is what memgov tells a reader about one returned entry.
type ReadNote struct {
	Source string  `json:"source"`
	Trust  float64 `json:"trust_level"`
	// Confidence is the entry's confidence now: a decaying source's
	// confidence after confidence decay (spec §14.7).
	Confidence float64 `json:"confidence"`
	// NeedsVerification flags a low-confidence entry for verification
	// before an agent acts on it, for the flag's lifetime (spec §14.4).
	NeedsVerification bool `json:"needs_verification,omitempty"`
	// Stale warns that the entry is old and not confident enough to be used
	// silently (spec §14.5).
	Stale string `json:"stale_warning,omitempty"`
}

// noter notes many entries with the policy's numbers read once.
type noter struct {
	pol        *policy.Policy
	decaying   map[string]bool
	verifyTTL  time.Duration
	staleAfter time.Duration
	staleText  string
}

func (s *Service) noter() noter {
	pol := &s.policy
	n := noter{pol: pol, decaying: map[string]bool{}, verifyTTL: pol.Provenance.VerifyTTL.Std(), staleAfter: pol.Provenance.StaleAfter.Std()}
	for _, s := range pol.ConfidenceDecay.Sources {
		n.decaying[s] = true
	}
	n.staleText = "older than " + durationText(n.staleAfter) + " with confidence below " + trimFloat(pol.Provenance.StaleBelow) + ": verify before use"
	return n
}

func (n noter) note(v memgov.Version, now time.Time) ReadNote {
	pv := &n.pol.Provenance
	src := v.Source
	if src == "" {
		src = "unknown"
	}
	trust, ok := pv.Trust[src]
	if !ok {
		trust = pv.DefaultTrust
	}
	conf := v.Confidence
	if n.decaying[v.Source] {
		conf, _ = n.pol.DecayConfidence(v.Source, v.Confidence, now.Sub(v.CreatedAt))
	}
	out := ReadNote{Source: src, Trust: trust, Confidence: round3(conf)}
	age := now.Sub(v.CreatedAt)
	// policy.NeedsVerification and policy.Stale, with the numbers read once.
	if conf < pv.VerifyBelow && (n.verifyTTL <= 0 || age < n.verifyTTL) {
		out.NeedsVerification = true
	}
	if age > n.staleAfter && conf < pv.StaleBelow {
		out.Stale = n.staleText
	}
	return out
}

// Retrieval is one recorded read: the id `memgov feedback` takes, and the
// entries returned with their notes.
type Retrieval struct {
	ID       string           `json:"retrieval_id,omitempty"`
	Versions []memgov.Version `json:"-"`
	Notes    []ReadNote       `json:"-"`
}

// Entries projects the retrieval onto plain MemoryEntries; Envelope adds
// the retrieval id and the read notes beside them.
func (r Retrieval) Entries() []Entry {
	return Entries(r.Versions)
}

func (en *Entry) annotate(retrieval string, n ReadNote) {
	en.RetrievalID = retrieval
	note := n
	en.Read = &note
}

// retrieve records a read of vs by the adapter's reader and notes each
// entry. An empty read records nothing and has no id.
func (a *MemoryAdapter) retrieve(ctx context.Context, ref string, vs []memgov.Version) (Retrieval, error) {
	now := a.s.now()
	r := Retrieval{Versions: vs, Notes: make([]ReadNote, len(vs))}
	n := a.s.noter()
	for i, v := range vs {
		r.Notes[i] = n.note(v, now)
	}
	id, err := a.s.recordRead(ctx, a.reader.ID(), ref, vs)
	r.ID = id
	return r, err
}

// ListRead is List recorded as a retrieval: the entries, their notes and the
// retrieval id.
func (a *MemoryAdapter) ListRead(ctx context.Context, ref string, opts ListOptions) (Retrieval, error) {
	vs, err := a.listVersions(ctx, ref, opts)
	if err != nil || opts.AtLSN > 0 {
		return Retrieval{Versions: vs, Notes: make([]ReadNote, len(vs))}, err
	}
	r, err := a.retrieve(ctx, ref, vs)
	return r, hideErr(err)
}

// GetRead is Get recorded as a retrieval; no entry, no retrieval.
func (a *MemoryAdapter) GetRead(ctx context.Context, ref, id string) (Retrieval, error) {
	v, err := a.getVersion(ctx, ref, id)
	if err != nil || v == nil {
		return Retrieval{}, err
	}
	r, err := a.retrieve(ctx, ref, []memgov.Version{*v})
	return r, hideErr(err)
}

// FoldReads brings the per-item read records up to date (the store's
// FoldReads): the audit's metrics read them.
func (s *Service) FoldReads(ctx context.Context) error {
	return s.store.Update(ctx, func(tx memgov.Tx) error { return tx.FoldReads(ctx) })
}

// durationText renders whole days as "7 days", else the duration.
func durationText(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		if n := int(d / (24 * time.Hour)); n != 1 {
			return strconv.Itoa(n) + " days"
		}
		return "1 day"
	}
	return d.String()
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
