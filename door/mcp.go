package door

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
)

// MCP for agents: the tools of the memory servers agents already use
// (add_memory, search_memories, list_memories, get_memory, forget_memory,
// memory_status). There is no review, approval or policy tool: those are
// people's decisions, taken in the TUI, the CLI or the JSON API.

const instructions = `memgov governs this memory: every add_memory passes gates (schema, content policy, evidence, contradiction, dedup, provenance, risk) and may be COMMITTED, MERGED, REJECTED with a reason, or DEFERRED to a person's review. add_memory(memory_ref, text) alone records what your user told you in this conversation (EPISODIC, user_stated_preference, evidence: your conversation); give observation_type and evidence_refs for anything else (a tool's result: tool_result_verified with the tool's URI). A DEFERRED write is not memory yet: its answer's next says who reviews it and by when; ask memory_status with its review_id. You act as the principal of your token and read only your tenant's memory.`

// AddMemoryInput is the input of add_memory.
type AddMemoryInput struct {
	MemoryRef        string              `json:"memory_ref" jsonschema:"the memoryRef to write to: TENANT/AGENT or TENANT/AGENT/SCOPE"`
	Text             string              `json:"text" jsonschema:"what to remember, in plain language"`
	Layer            string              `json:"layer,omitempty" jsonschema:"WORKING, SESSION, EPISODIC (default), SEMANTIC or PROCEDURAL"`
	Key              string              `json:"key,omitempty" jsonschema:"a stable key; writing the same key again updates the entry (default: a new key)"`
	Subject          string              `json:"subject,omitempty" jsonschema:"for facts: the subject of a subject-predicate-object triple"`
	Predicate        string              `json:"predicate,omitempty" jsonschema:"for facts: the predicate"`
	Object           string              `json:"object,omitempty" jsonschema:"for facts: the object"`
	Tags             []string            `json:"tags,omitempty"`
	EvidenceRefs     []oplog.EvidenceRef `json:"evidence_refs,omitempty" jsonschema:"where the memory comes from (default with the default observation_type: HUMAN_INPUT from your conversation, conversation:PRINCIPAL[/SESSION])"`
	Confidence       *float64            `json:"confidence,omitempty" jsonschema:"0 to 1"`
	ObservationType  string              `json:"observation_type,omitempty" jsonschema:"what kind of observation: user_stated_preference (default for EPISODIC and SEMANTIC), tool_result_verified, task_completion_strategy or session_summary; WORKING and SESSION take any"`
	Classification   string              `json:"classification,omitempty" jsonschema:"PUBLIC, GENERAL, CONFIDENTIAL or RESTRICTED"`
	TTLSeconds       *int64              `json:"ttl_seconds,omitempty"`
	IdempotencyToken string              `json:"idempotency_token,omitempty" jsonschema:"the same token returns the first outcome instead of writing twice"`
	SessionID        string              `json:"session_id,omitempty"`
	SourceAgentID    string              `json:"source_agent_id,omitempty" jsonschema:"if given, must be your own principal: a write naming another agent is refused"`
	Wait             *bool               `json:"wait,omitempty" jsonschema:"wait for a person's decision on a SYNC_BLOCK write (default true, bounded by the server)"`
}

// request is the governed write the input asks for.
func (in AddMemoryInput) request() (memgov.WriteRequest, error) {
	content := map[string]any{"text": in.Text}
	for k, v := range map[string]string{"subject": in.Subject, "predicate": in.Predicate, "object": in.Object} {
		if v != "" {
			content[k] = v
		}
	}
	b, err := jsonMarshal(content)
	if err != nil {
		return memgov.WriteRequest{}, err
	}
	layer := memgov.Layer(strings.ToUpper(in.Layer))
	return memgov.WriteRequest{SourceAgentID: in.SourceAgentID, MemoryRef: in.MemoryRef, Key: in.Key, TargetLayer: layer,
		Content: b, Tags: in.Tags, EvidenceRefs: in.EvidenceRefs, Confidence: in.Confidence, ObservationType: in.ObservationType,
		Classification: in.Classification, TTLSeconds: in.TTLSeconds, IdempotencyToken: in.IdempotencyToken, SessionID: in.SessionID}, nil
}

// SearchInput is the input of search_memories.
type SearchInput struct {
	MemoryRef         string   `json:"memory_ref"`
	Query             string   `json:"query,omitempty" jsonschema:"what to look for (a query, tags, or both)"`
	Tags              []string `json:"tags,omitempty" jsonschema:"results must carry every tag"`
	Limit             int      `json:"limit,omitempty" jsonschema:"at most this many results (default 10, at most 100)"`
	IncludeSuperseded bool     `json:"include_superseded,omitempty"`
}

// Hit is one search result: the entry exactly as a MemoryEntry, and its
// read note beside it.
type Hit struct {
	Entry     host.Entry     `json:"entry"`
	Read      *host.ReadNote `json:"read,omitempty"`
	VersionID string         `json:"version_id"`
	State     string         `json:"state"`
	Score     float64        `json:"score"`
	ValidAt   string         `json:"valid_at"`
	InvalidAt string         `json:"invalid_at,omitempty"`
}

// SearchOutput is the output of search_memories: the hits and the id of
// this retrieval (for memgov feedback).
type SearchOutput struct {
	MemoryRef   string `json:"memory_ref"`
	RetrievalID string `json:"retrieval_id,omitempty"`
	Hits        []Hit  `json:"hits"`
}

// ListInput is the input of list_memories.
type ListInput struct {
	MemoryRef string `json:"memory_ref"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many entries (default 100, at most 1000)"`
	Tag       string `json:"tag,omitempty"`
	After     string `json:"after,omitempty" jsonschema:"the last key of the previous page"`
}

// GetInput is the input of get_memory.
type GetInput struct {
	MemoryRef string `json:"memory_ref"`
	Key       string `json:"key" jsonschema:"the entry's id (its key)"`
}

// GetOutput is the output of get_memory: the entry exactly as a
// MemoryEntry, the retrieval id and the entry's read note.
type GetOutput struct {
	Found       bool           `json:"found"`
	MemoryRef   string         `json:"memory_ref"`
	RetrievalID string         `json:"retrieval_id,omitempty"`
	Entry       *host.Entry    `json:"entry,omitempty"`
	Read        *host.ReadNote `json:"read,omitempty"`
	// Links are the versions the entry's version was kept beside, as the
	// caller may see them (the links of GET /v1/memories/{key}).
	Links []Link `json:"links,omitempty"`
}

// ForgetInput is the input of forget_memory.
type ForgetInput struct {
	MemoryRef string `json:"memory_ref"`
	Key       string `json:"key,omitempty" jsonschema:"the entry to forget"`
	Subject   string `json:"subject,omitempty" jsonschema:"forget every entry about this subject (curators and operators only)"`
	Reason    string `json:"reason" jsonschema:"why; it is kept in the audit log"`
}

// ForgetOutput is the output of forget_memory.
type ForgetOutput struct {
	Forgotten int      `json:"forgotten"`
	Keys      []string `json:"keys"`
}

// StatusInput is the input of memory_status.
type StatusInput struct {
	ReviewID string `json:"review_id" jsonschema:"the review_id of a DEFERRED add_memory"`
}

func ptr[T any](v T) *T { return &v }

// newMCPServer returns the MCP server whose tools act as the principal who
// returns: the bearer token's principal over HTTP, MEMGOV_TOKEN's over stdio.
//
// forget_memory is listed only when forget is true: for principals who may
// delete an entry under the policy or forget by subject (see canForget).
func (s *Server) newMCPServer(who func(context.Context, *mcp.CallToolRequest) (memgov.Principal, error), door string, forget bool) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "memgov", Title: "memgov governed memory", Version: s.cfg.Version},
		&mcp.ServerOptions{Instructions: instructions})
	closed := ptr(false)

	mcp.AddTool(srv, &mcp.Tool{Name: "add_memory", Title: "Remember something (governed)",
		Description: "Submit a memory write through memgov's gates; memory_ref and text are all it needs. Without observation_type and evidence_refs the text is recorded as what your user told you in this conversation (EPISODIC, user_stated_preference, evidence HUMAN_INPUT conversation:PRINCIPAL). Returns status (COMMITTED, MERGED, ALREADY_COMMITTED, REJECTED, DEFERRED, DENIED), the gate and reason code, and the item or review id; a DEFERRED answer's next says who reviews it, by when, and how to follow it (memory_status). A SYNC_BLOCK write waits for a person's decision.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: false, OpenWorldHint: closed}},
		func(ctx context.Context, req *mcp.CallToolRequest, in AddMemoryInput) (*mcp.CallToolResult, WriteAnswer, error) {
			ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
			p, err := who(ctx, req)
			if err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			if err := exactArguments(req); err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			if err := refParam(in.MemoryRef); err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			if err := memgov.CheckKey(in.Key); err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			wr, err := in.request()
			if err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			s.fillWrite(&wr, p)
			res, err := s.write(ctx, p, wr, in.Wait == nil || *in.Wait, door)
			if err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			return nil, s.answerWrite(ctx, res), nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "search_memories", Title: "Search memory",
		Description: "Rank the entries of a memoryRef you may read by hybrid retrieval (semantic, structure, recency, weighted by provenance).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed}},
		func(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
			ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
			p, err := who(ctx, req)
			if err != nil {
				return nil, SearchOutput{}, toolError(err)
			}
			if err := refParam(in.MemoryRef); err != nil {
				return nil, SearchOutput{}, toolError(err)
			}
			hits, rid, err := s.eng.Host().Adapter(memgov.As(p.ID)).SearchRead(ctx, host.SearchQuery{MemoryRef: in.MemoryRef, Query: in.Query, Tags: in.Tags, Limit: in.Limit, IncludeSuperseded: in.IncludeSuperseded})
			if err != nil {
				return nil, SearchOutput{}, toolError(err)
			}
			env := host.EnvelopeSearch(in.MemoryRef, rid, hits)
			out := SearchOutput{MemoryRef: in.MemoryRef, RetrievalID: rid, Hits: make([]Hit, len(env.Hits))}
			for i, h := range env.Hits {
				out.Hits[i] = Hit{Entry: h.Entry, Read: h.Read, VersionID: h.VersionID, State: string(h.State), Score: h.Score, ValidAt: h.ValidAt, InvalidAt: h.InvalidAt}
			}
			return nil, out, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "list_memories", Title: "List memory",
		Description: "List the visible entries of a memoryRef, ordered by key; page with after.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed}},
		func(ctx context.Context, req *mcp.CallToolRequest, in ListInput) (*mcp.CallToolResult, host.ReadEnvelope, error) {
			ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
			p, err := who(ctx, req)
			if err != nil {
				return nil, host.ReadEnvelope{}, toolError(err)
			}
			if in.Limit == 0 {
				in.Limit = 100
			}
			if in.Limit < 0 || in.Limit > 1000 {
				return nil, host.ReadEnvelope{}, toolError(fmt.Errorf("%w: limit must be from 1 to 1000", memgov.ErrInvalid))
			}
			if err := refParam(in.MemoryRef); err != nil {
				return nil, host.ReadEnvelope{}, toolError(err)
			}
			rd, err := s.eng.Host().Adapter(memgov.As(p.ID)).ListRead(ctx, in.MemoryRef, host.ListOptions{Limit: in.Limit, Tag: in.Tag, AfterKey: in.After})
			if err != nil {
				return nil, host.ReadEnvelope{}, toolError(err)
			}
			return nil, rd.Envelope(in.MemoryRef), nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "get_memory", Title: "Read one memory",
		Description: "Read one visible entry of a memoryRef by its id (key).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed}},
		func(ctx context.Context, req *mcp.CallToolRequest, in GetInput) (*mcp.CallToolResult, GetOutput, error) {
			ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
			p, err := who(ctx, req)
			if err != nil {
				return nil, GetOutput{}, toolError(err)
			}
			if err := refParam(in.MemoryRef); err != nil {
				return nil, GetOutput{}, toolError(err)
			}
			if err := keyParam(in.Key); err != nil {
				return nil, GetOutput{}, toolError(err)
			}
			rd, err := s.eng.Host().Adapter(memgov.As(p.ID)).GetRead(ctx, in.MemoryRef, in.Key)
			if err != nil {
				return nil, GetOutput{}, toolError(err)
			}
			g := getEnvelope(in.MemoryRef, rd)
			out := GetOutput{Found: g.Entry != nil, MemoryRef: g.MemoryRef, RetrievalID: g.RetrievalID, Entry: g.Entry, Read: g.Read}
			if len(rd.Versions) > 0 {
				if out.Links, err = s.linksAs(ctx, p, rd.Versions[0]); err != nil {
					return nil, GetOutput{}, toolError(err)
				}
			}
			return nil, out, nil
		})

	if forget {
		s.addForgetTool(srv, who)
	}

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_status", Title: "Fate of a deferred write",
		Description: "Tell what became of a DEFERRED add_memory: still DEFERRED (with who reviews it and by when), COMMITTED once a person approved it, or REJECTED with the reason.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed}},
		func(ctx context.Context, req *mcp.CallToolRequest, in StatusInput) (*mcp.CallToolResult, WriteAnswer, error) {
			ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
			p, err := who(ctx, req)
			if err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			res, err := s.eng.Writes().WriteStatus(ctx, p.ID, in.ReviewID)
			if err != nil {
				return nil, WriteAnswer{}, toolError(err)
			}
			return nil, s.answerWrite(ctx, res), nil
		})
	return srv
}

// canForget reports whether p can ever use forget_memory: a curator or an
// operator (who forget by subject), or a principal the policy lets delete
// entries of some layer.
func (s *Server) canForget(p memgov.Principal) bool {
	return s.eng.Authz().DeletesSomewhere(p)
}

// exactArguments refuses tool arguments that decoding changed: a lone
// surrogate escape or an integer beyond 2^53 (memgov.CheckExactJSON).
func exactArguments(req *mcp.CallToolRequest) error {
	if req == nil || req.Params == nil || len(req.Params.Arguments) == 0 {
		return nil
	}
	return memgov.CheckExactJSON("the arguments", req.Params.Arguments)
}

func (s *Server) addForgetTool(srv *mcp.Server, who func(context.Context, *mcp.CallToolRequest) (memgov.Principal, error)) {
	closed := ptr(false)
	mcp.AddTool(srv, &mcp.Tool{Name: "forget_memory", Title: "Forget a memory",
		Description: "Retract an entry (by key) with a reason; the log keeps its history. Forgetting by subject is for curators and operators.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: closed}},
		func(ctx context.Context, req *mcp.CallToolRequest, in ForgetInput) (*mcp.CallToolResult, ForgetOutput, error) {
			ctx, cancel := context.WithTimeout(ctx, s.cfg.RequestTimeout)
			defer cancel()
			p, err := who(ctx, req)
			if err != nil {
				return nil, ForgetOutput{}, toolError(err)
			}
			out := ForgetOutput{Keys: []string{}}
			if err := refParam(in.MemoryRef); err != nil {
				return nil, out, toolError(err)
			}
			switch {
			case in.Key != "" && in.Subject != "":
				return nil, out, toolError(fmt.Errorf("%w: give key or subject, not both", memgov.ErrInvalid))
			case in.Key != "":
				if err := keyParam(in.Key); err != nil {
					return nil, out, toolError(err)
				}
				res, err := s.eng.Host().Adapter(memgov.As(p.ID)).Delete(ctx, in.MemoryRef, in.Key, in.Reason)
				if err != nil {
					return nil, out, toolError(err)
				}
				if res.Deleted {
					out.Forgotten, out.Keys = 1, []string{in.Key}
				}
			default:
				res, err := s.eng.Host().Forget(ctx, in.MemoryRef, in.Subject, p.ID, in.Reason)
				if err != nil {
					return nil, out, toolError(err)
				}
				out.Forgotten, out.Keys = res.Forgotten, res.Keys
			}
			return nil, out, nil
		})

}

// toolError is a tool error an agent can act on: CODE: message.
func toolError(err error) error {
	_, code, msg := classify(err)
	return errors.New(code + ": " + msg)
}

// mcpHTTPHandler is MCP over streamable HTTP. It is stateless (every POST
// stands alone, which suits tool calls and needs no session affinity) and
// answers JSON. Requests reach it through authenticated, which puts the
// token's principal in the context; RequireBearerToken hands it to the tools.
func (s *Server) mcpHTTPHandler() http.Handler {
	who := func(ctx context.Context, req *mcp.CallToolRequest) (memgov.Principal, error) {
		if req.Extra != nil && req.Extra.TokenInfo != nil {
			if p, ok := req.Extra.TokenInfo.Extra["principal"].(memgov.Principal); ok {
				return p, nil
			}
		}
		return memgov.Principal{}, fmt.Errorf("%w: no bearer token", memgov.ErrUnauthorized)
	}
	full, agent := s.newMCPServer(who, "mcp", true), s.newMCPServer(who, "mcp", false)
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if p, ok := principalFrom(r.Context()); ok && !s.canForget(p) {
			return agent
		}
		return full
	},
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: s.log, MaxRequestBodyBytes: s.cfg.MaxBodyBytes})
	verify := func(ctx context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		p, ok := principalFrom(r.Context())
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: p.ID, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"principal": p}}, nil
	}
	return auth.RequireBearerToken(verify, nil)(h)
}

// StdioServer returns the MCP server of `memgov mcp` for the principal p
// of token: every tool call authenticates token again, so a revoked token
// stops working at once. Its tools are those p can use.
func (s *Server) StdioServer(token string, p memgov.Principal) *mcp.Server {
	who := func(ctx context.Context, _ *mcp.CallToolRequest) (memgov.Principal, error) {
		return s.eng.Authenticate(ctx, token)
	}
	return s.newMCPServer(who, "stdio", s.canForget(p))
}
