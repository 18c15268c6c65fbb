package door

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/writes"
)

// route is one operation of the JSON API. The OpenAPI document served at
// /v1/openapi.json describes exactly these (a test holds them together).
type route struct {
	method, path string
	handle       func(w http.ResponseWriter, r *http.Request, p memgov.Principal)
}

func (s *Server) routes() []route {
	return []route{
		{"GET", "/v1/whoami", s.whoami},
		// Agents: governed writes and reads of their tenant's memory.
		{"POST", "/v1/memories", s.postMemory},
		{"GET", "/v1/memories", s.listMemories},
		{"GET", "/v1/memories/{key...}", s.getMemory},
		{"DELETE", "/v1/memories/{key...}", s.deleteMemory},
		{"POST", "/v1/search", s.search},
		{"GET", "/v1/writes/{review_id}", s.writeStatus},
		{"POST", "/v1/verify", s.verify},
		// Curators and operators: forget by subject and every decision, through
		// the review service the TUI and CLI use.
		{"POST", "/v1/forget", s.forget},
		{"GET", "/v1/reviews", s.listReviews},
		{"POST", "/v1/reviews/{id}/claim", s.claimReview},
		{"POST", "/v1/reviews/{id}/release", s.releaseReview},
		{"POST", "/v1/reviews/{id}/approve", s.approveReview},
		{"POST", "/v1/reviews/{id}/reject", s.rejectReview},
		{"POST", "/v1/reviews/{id}/escalate", s.escalateReview},
		{"GET", "/v1/drift", s.listDrift},
		{"POST", "/v1/drift/{id}/ack", s.ackDrift},
		{"GET", "/v1/proposals", s.listProposals},
		{"POST", "/v1/proposals/{id}/{action}", s.decideProposal},
	}
}

func (s *Server) routeAPI(mux *http.ServeMux) {
	mux.HandleFunc("GET /v1/openapi.json", s.openapi)
	for _, rt := range s.routes() {
		h := rt.handle
		pattern := rt.method + " " + rt.path
		mux.Handle(pattern, s.authenticated(s.metrics.timed(rt.path, func(w http.ResponseWriter, r *http.Request) {
			p, ok := principalFrom(r.Context())
			if !ok {
				writeError(w, http.StatusUnauthorized, CodeUnauthorized, "no principal")
				return
			}
			ctx, cancel := contextTimeout(r, s.cfg.RequestTimeout)
			defer cancel()
			h(w, r.WithContext(ctx), p)
		})))
	}
	// A known path asked with another method gets a JSON 405, not the mux's text.
	seen := map[string]bool{}
	for _, rt := range s.routes() {
		if seen[rt.path] {
			continue
		}
		seen[rt.path] = true
		mux.HandleFunc(rt.path, func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed, fmt.Sprintf("%s does not take %s (see /v1/openapi.json)", r.URL.Path, r.Method))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no route %s %s (see /v1/openapi.json)", r.Method, r.URL.Path))
	})
}

// decode reads a JSON body into v; unknown fields and trailing data are
// errors, as for the CLI.
func decode(r *http.Request, v any) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("%w: the request needs a JSON body", memgov.ErrInvalid)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: the body is not valid: %v", memgov.ErrInvalid, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: unexpected data after the JSON body", memgov.ErrInvalid)
	}
	return nil
}

// decodeOptional is decode for bodies that may be left out.
func decodeOptional(r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	return decode(r, v)
}

func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%w: %s must be a whole number from %d to %d", memgov.ErrInvalid, name, lo, hi)
	}
	return n, nil
}

func (s *Server) whoami(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	writeJSON(w, http.StatusOK, p)
}

// writeHTTPStatus is the HTTP status of a write outcome: the body is always
// the write's result.
func writeHTTPStatus(status string) int {
	switch status {
	case memgov.StatusDeferred:
		return http.StatusAccepted
	case memgov.StatusDenied:
		return http.StatusForbidden
	case memgov.StatusRejected, memgov.StatusDeadlineExceeded:
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}

// refParam checks a required memory_ref, as every route that takes one
// does, reads and writes alike: missing or malformed is a 400 naming what
// is wrong (never echoing the ref).
func refParam(ref string) error {
	if ref == "" {
		return fmt.Errorf("%w: memory_ref is required (TENANT/AGENT[/SCOPE])", memgov.ErrInvalid)
	}
	if _, err := scope.Parse(ref); err != nil {
		return fmt.Errorf("%w: memory_ref is malformed: %v", memgov.ErrInvalid, strings.TrimPrefix(err.Error(), scope.ErrMalformed.Error()+": "))
	}
	return nil
}

// keyParam checks a required entry key as the engine checks the keys it
// is asked to write.
func keyParam(key string) error {
	if key == "" {
		return fmt.Errorf("%w: the entry key is required (/v1/memories/KEY?memory_ref=REF)", memgov.ErrInvalid)
	}
	return memgov.CheckKey(key)
}

func (s *Server) postMemory(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req, err := memgov.DecodeWriteRequest(raw)
	if err == nil {
		err = refParam(req.MemoryRef)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.fillWrite(&req, p)
	res, err := s.write(r.Context(), p, req, r.URL.Query().Get("wait") != "false", "http")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, writeHTTPStatus(res.Status), s.answerWrite(r.Context(), res))
}

func (s *Server) listMemories(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	q := r.URL.Query()
	if err := refParam(q.Get("memory_ref")); err != nil {
		s.fail(w, r, err)
		return
	}
	limit, err := intParam(r, "limit", 100, 0, 1000)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rd, err := s.eng.Host().Adapter(memgov.As(p.ID)).ListRead(r.Context(), q.Get("memory_ref"), host.ListOptions{Limit: limit, Tag: q.Get("tag"), AfterKey: q.Get("after")})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rd.Envelope(q.Get("memory_ref")))
}

// GetEnvelope is the answer of a recorded get: the entry exactly as a
// MemoryEntry, and beside it the retrieval id, the entry's read note and
// the near texts its version was kept beside.
type GetEnvelope struct {
	MemoryRef   string         `json:"memory_ref"`
	RetrievalID string         `json:"retrieval_id,omitempty"`
	Entry       *host.Entry    `json:"entry"`
	Read        *host.ReadNote `json:"read,omitempty"`
	// Links are the versions the entry's version was kept beside as its own
	// item (relation NEAR_DUPLICATE, each with the judge rule that linked
	// them), as the reader may see them: a link to a version the reader may
	// not read is left out.
	Links []Link `json:"links,omitempty"`
}

// Link is a version another version was kept beside: the linked item,
// version and key, its state now ("" once it is gone) and the judge rule
// that linked them. It carries no text: read the linked entry by its key.
// The fields are those of `memgov history --json`'s links.
type Link struct {
	Relation   string       `json:"relation"`
	ItemID     string       `json:"item_id"`
	VersionID  string       `json:"version_id"`
	Key        string       `json:"key"`
	State      memgov.State `json:"state"`
	Similarity float64      `json:"similarity,omitempty"`
	Rule       string       `json:"rule,omitempty"`
	RuleWords  []string     `json:"rule_words,omitempty"`
}

// linksAs reads the links of v as principal p may see them.
func (s *Server) linksAs(ctx context.Context, p memgov.Principal, v memgov.Version) ([]Link, error) {
	links, err := s.eng.Host().Links(ctx, memgov.As(p.ID), []memgov.Version{v})
	if err != nil {
		return nil, err
	}
	var out []Link
	for _, l := range links[v.ID] {
		out = append(out, Link{Relation: l.Relation, ItemID: l.ItemID, VersionID: l.VersionID, Key: l.Key, State: l.State,
			Similarity: l.Similarity, Rule: l.Rule, RuleWords: l.RuleWords})
	}
	return out, nil
}

func getEnvelope(ref string, rd host.Retrieval) GetEnvelope {
	out := GetEnvelope{MemoryRef: ref, RetrievalID: rd.ID}
	if len(rd.Versions) > 0 {
		en := host.EntryOf(rd.Versions[0])
		out.Entry = &en
		if len(rd.Notes) > 0 {
			n := rd.Notes[0]
			out.Read = &n
		}
	}
	return out
}

func (s *Server) getMemory(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	ref, key := r.URL.Query().Get("memory_ref"), r.PathValue("key")
	if err := refParam(ref); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := keyParam(key); err != nil {
		s.fail(w, r, err)
		return
	}
	rd, err := s.eng.Host().Adapter(memgov.As(p.ID)).GetRead(r.Context(), ref, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(rd.Versions) == 0 {
		writeError(w, http.StatusNotFound, CodeNotFound, "no visible entry "+key+" in "+ref)
		return
	}
	out := getEnvelope(ref, rd)
	if out.Links, err = s.linksAs(r.Context(), p, rd.Versions[0]); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) deleteMemory(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	q := r.URL.Query()
	if err := refParam(q.Get("memory_ref")); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := keyParam(r.PathValue("key")); err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.eng.Host().Adapter(memgov.As(p.ID)).Delete(r.Context(), q.Get("memory_ref"), r.PathValue("key"), q.Get("reason"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// searchBody is the body of POST /v1/search.
type searchBody struct {
	MemoryRef         string     `json:"memory_ref"`
	Query             string     `json:"query"`
	Tags              []string   `json:"tags,omitempty"`
	Limit             int        `json:"limit,omitempty"`
	AsOf              *time.Time `json:"as_of,omitempty"`
	IncludeSuperseded bool       `json:"include_superseded,omitempty"`
}

func (b searchBody) query() host.SearchQuery {
	q := host.SearchQuery{MemoryRef: b.MemoryRef, Query: b.Query, Tags: b.Tags, Limit: b.Limit, IncludeSuperseded: b.IncludeSuperseded}
	if b.AsOf != nil {
		q.AsOf = *b.AsOf
	}
	return q
}

func (s *Server) search(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b searchBody
	if err := decode(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := refParam(b.MemoryRef); err != nil {
		s.fail(w, r, err)
		return
	}
	hits, rid, err := s.eng.Host().Adapter(memgov.As(p.ID)).SearchRead(r.Context(), b.query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, host.EnvelopeSearch(b.MemoryRef, rid, hits))
}

func (s *Server) writeStatus(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	res, err := s.eng.Writes().WriteStatus(r.Context(), p.ID, r.PathValue("review_id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.answerWrite(r.Context(), res))
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b struct {
		MemoryRef string          `json:"memory_ref"`
		State     json.RawMessage `json:"state,omitempty"`
		Deep      bool            `json:"deep,omitempty"`
	}
	if err := decode(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.eng.VerifyMemoryAs(r.Context(), p.ID, memgov.VerifyRequest{MemoryRef: b.MemoryRef, State: b.State, Deep: b.Deep})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) forget(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b struct {
		MemoryRef string `json:"memory_ref"`
		Subject   string `json:"subject"`
		Reason    string `json:"reason"`
	}
	if err := decode(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.eng.Host().Forget(r.Context(), b.MemoryRef, b.Subject, p.ID, b.Reason)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// reviewRow is one open review as the JSON API lists it.
type reviewRow struct {
	memgov.Review
	Key    string              `json:"key"`
	Text   string              `json:"text"`
	Detail writes.ReviewDetail `json:"detail"`
}

func (s *Server) listReviews(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	svc := review.New(s.eng, p)
	if err := svc.CanAct(); err != nil {
		s.fail(w, r, err)
		return
	}
	f, err := review.ParseQueueFilter(r.URL.Query().Get("filter"))
	if err != nil {
		s.fail(w, r, fmt.Errorf("%w: filter: %v", memgov.ErrInvalid, err))
		return
	}
	limit, err := intParam(r, "limit", 50, 1, 500)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	offset, err := intParam(r, "offset", 0, 0, 1<<30)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page, err := svc.Queue().Page(r.Context(), f, offset, limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rows := make([]reviewRow, len(page.Rows))
	for i, row := range page.Rows {
		rows[i] = reviewRow{Review: row.Review, Key: row.Key, Text: row.Text, Detail: row.Detail}
		rows[i].Review.Detail = nil
	}
	writeJSON(w, http.StatusOK, map[string]any{"total": page.Total, "offset": page.Offset, "reviews": rows})
}

// decisionBody is the body of a review decision.
type decisionBody struct {
	Note       string `json:"note,omitempty"`
	Code       string `json:"code,omitempty"`
	ClaimToken int64  `json:"claim_token,omitempty"`
}

func (s *Server) claimReview(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	rv, err := review.New(s.eng, p).Queue().Claim(r.Context(), r.PathValue("id"))
	s.answer(w, r, rv, err)
}

func (s *Server) releaseReview(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	released, err := review.New(s.eng, p).Queue().Release(r.Context(), r.PathValue("id"))
	s.answer(w, r, map[string]bool{"released": released}, err)
}

func (s *Server) approveReview(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b decisionBody
	if err := decodeOptional(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	rv, err := review.New(s.eng, p).Queue().Approve(r.Context(), r.PathValue("id"), b.ClaimToken, b.Note)
	s.answer(w, r, rv, err)
}

func (s *Server) rejectReview(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b decisionBody
	if err := decode(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	rv, err := review.New(s.eng, p).Queue().Reject(r.Context(), r.PathValue("id"), b.ClaimToken, b.Code, b.Note)
	s.answer(w, r, rv, err)
}

func (s *Server) escalateReview(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b decisionBody
	if err := decodeOptional(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	rv, err := review.New(s.eng, p).Queue().Escalate(r.Context(), r.PathValue("id"), b.Note)
	s.answer(w, r, rv, err)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// driftRow is one open drift episode as the JSON API lists it.
type driftRow struct {
	baselines.DriftReport
	Error string `json:"error,omitempty"`
}

func (s *Server) listDrift(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	svc := review.New(s.eng, p)
	if err := svc.CanAct(); err != nil {
		s.fail(w, r, err)
		return
	}
	vs, err := svc.Drift().List(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rows := make([]driftRow, len(vs))
	for i, v := range vs {
		rows[i].DriftReport = v.DriftReport
		if v.Err != nil {
			rows[i].Error = v.Err.Error()
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"episodes": rows})
}

func (s *Server) ackDrift(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b struct {
		Resolution string `json:"resolution"`
		Note       string `json:"note,omitempty"`
	}
	if err := decode(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := review.New(s.eng, p).Drift().AckID(r.Context(), r.PathValue("id"), b.Resolution, b.Note)
	s.answer(w, r, res, err)
}

func (s *Server) listProposals(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	svc := review.New(s.eng, p)
	if err := svc.CanAct(); err != nil {
		s.fail(w, r, err)
		return
	}
	f, err := review.ParseProposalFilter(r.URL.Query().Get("filter"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ps, err := svc.Proposals().List(r.Context(), f)
	if ps == nil {
		ps = []memgov.Proposal{}
	}
	s.answer(w, r, map[string]any{"proposals": ps}, err)
}

func (s *Server) decideProposal(w http.ResponseWriter, r *http.Request, p memgov.Principal) {
	var b struct {
		Note string `json:"note,omitempty"`
	}
	if err := decodeOptional(r, &b); err != nil {
		s.fail(w, r, err)
		return
	}
	svc := review.New(s.eng, p)
	if err := svc.CanAct(); err != nil {
		s.fail(w, r, err)
		return
	}
	ps := svc.Proposals()
	view, err := ps.Show(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	switch action := r.PathValue("action"); action {
	case "apply":
		res, err := ps.Apply(r.Context(), view.Proposal)
		s.answer(w, r, res, err)
	case "reject":
		pr, err := ps.Reject(r.Context(), view.Proposal, b.Note)
		s.answer(w, r, pr, err)
	case "archive":
		pr, err := ps.Archive(r.Context(), view.Proposal, b.Note)
		s.answer(w, r, pr, err)
	default:
		s.fail(w, r, fmt.Errorf("%w: proposal action %q: apply, reject or archive", memgov.ErrNotFound, strings.ToValidUTF8(action, "?")))
	}
}

// contextTimeout bounds a request's work by the server's time-out.
func contextTimeout(r *http.Request, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), d)
}
