package policy

import (
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/judge"
)

// SourceGrant is one entry of the evidence source registry: evidence whose
// source URI starts with Prefix (and, when Type is set, of that source type)
// may claim at most Authority.
type SourceGrant struct {
	Prefix    string  `yaml:"prefix" json:"prefix"`
	Type      string  `yaml:"type,omitempty" json:"type,omitempty"`
	Authority float64 `yaml:"authority" json:"authority"`
}

// Models configures the optional model-backed judges. An endpoint with no
// base URL is not configured: the built-in judges decide alone.
type Models struct {
	// Embedder speaks the OpenAI-compatible POST /v1/embeddings API; when
	// configured it embeds texts for tier-3 duplicates and topic candidates.
	Embedder ModelEndpoint `yaml:"embedder" json:"embedder"`
	// Judge speaks the OpenAI-compatible POST /v1/chat/completions API; when
	// configured it judges contradiction and evidence support.
	Judge ModelEndpoint `yaml:"judge" json:"judge"`
}

// ModelEndpoint is one OpenAI-compatible model server.
type ModelEndpoint struct {
	// BaseURL is the server's address, e.g. http://localhost:11434 (Ollama).
	BaseURL string `yaml:"base_url" json:"base_url"`
	// Model is the model name the server knows.
	Model string `yaml:"model" json:"model"`
	// APIKeyEnv names the environment variable holding the API key; empty:
	// no key is sent. The key itself never appears in the policy.
	APIKeyEnv string `yaml:"api_key_env" json:"api_key_env"`
	// Timeout bounds one request; a request that takes longer fails, and the
	// write goes to a person (MODEL_UNAVAILABLE).
	Timeout Duration `yaml:"timeout" json:"timeout"`
}

// Configured reports whether the endpoint is set.
func (m ModelEndpoint) Configured() bool { return strings.TrimSpace(m.BaseURL) != "" }

// Cardinalities returns the relation cardinalities the policy declares, for
// the rule-based judge (judge.New).
func (c Contradiction) Cardinalities() map[string]judge.Cardinality {
	out := map[string]judge.Cardinality{}
	for _, r := range c.MultiValued {
		out[strings.ToLower(strings.TrimSpace(r))] = judge.Multi
	}
	for _, r := range c.SingleValued {
		out[strings.ToLower(strings.TrimSpace(r))] = judge.Single
	}
	return out
}

// defaultRelations lists judge.DefaultCardinality's relations of cardinality
// want, sorted.
func defaultRelations(want judge.Cardinality) []string {
	var out []string
	for r, c := range judge.DefaultCardinality {
		if c == want {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// GrantedAuthority is the most authority evidence of sourceType from
// sourceURI may claim: the longest matching registry prefix's grant, or the
// source type's default authority when no prefix matches.
func (p *Policy) GrantedAuthority(sourceType, sourceURI string) float64 {
	best, granted := -1, -1.0
	for _, g := range p.Evidence.Sources {
		if g.Type != "" && g.Type != sourceType {
			continue
		}
		if g.Prefix != "" && strings.HasPrefix(sourceURI, g.Prefix) && len(g.Prefix) > best {
			best, granted = len(g.Prefix), g.Authority
		}
	}
	if best >= 0 {
		return granted
	}
	a, _ := p.Evidence.Authority.Get(sourceType)
	return a
}

func (v *validator) judgement(p Policy) {
	v.unit("evidence.support_without_excerpt", p.Evidence.SupportWithoutExcerpt)
	v.unit("evidence.partial_support", p.Evidence.PartialSupport)
	for i, g := range p.Evidence.Sources {
		if g.Prefix == "" {
			v.addf("evidence.sources[%d].prefix: empty", i)
		}
		v.unit("evidence.sources["+g.Prefix+"].authority", g.Authority)
	}
	for _, m := range []struct {
		name string
		e    ModelEndpoint
	}{{"models.embedder", p.Models.Embedder}, {"models.judge", p.Models.Judge}} {
		if !m.e.Configured() {
			continue
		}
		if u, err := url.Parse(m.e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			v.addf("%s.base_url: %q is not an http(s) URL", m.name, m.e.BaseURL)
		}
		if strings.TrimSpace(m.e.Model) == "" {
			v.addf("%s.model: empty", m.name)
		}
		v.nonNegativeDur(m.name+".timeout", m.e.Timeout)
	}
}

// ModelTimeout is the endpoint's time-out, 30 seconds when unset.
func (m ModelEndpoint) ModelTimeout() time.Duration {
	if m.Timeout <= 0 {
		return 30 * time.Second
	}
	return time.Duration(m.Timeout)
}
