package policy

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

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
// the rule-based judge (judge.New). A relation found in both lists takes
// the cardinality that is not the judge's default: the one the policy
// wrote over the default list, which still holds it.
func (c Contradiction) Cardinalities() map[string]judge.Cardinality {
	out := map[string]judge.Cardinality{}
	single := map[string]bool{}
	for _, r := range c.SingleValued {
		r = strings.ToLower(strings.TrimSpace(r))
		single[r] = true
		out[r] = judge.Single
	}
	for _, r := range c.MultiValued {
		r = strings.ToLower(strings.TrimSpace(r))
		if single[r] && judge.DefaultCardinality[r] == judge.Multi {
			continue // listed single-valued over the default
		}
		out[r] = judge.Multi
	}
	return out
}

// overrideCardinalities makes the relation lists of a policy document (raw,
// already decoded into c over the defaults) override the defaults: a
// relation the document lists in multi_valued leaves the default
// single_valued list, and the other way round, unless the document gives
// that list too. A relation the document lists in both is an error.
func (c *Contradiction) overrideCardinalities(raw []byte) error {
	var given struct {
		Contradiction struct {
			Single *[]string `yaml:"single_valued"`
			Multi  *[]string `yaml:"multi_valued"`
		} `yaml:"contradiction"`
	}
	if err := yaml.Unmarshal(raw, &given); err != nil {
		return nil // the strict decode already accepted the document
	}
	norm := func(rs []string) map[string]bool {
		m := map[string]bool{}
		for _, r := range rs {
			m[strings.ToLower(strings.TrimSpace(r))] = true
		}
		return m
	}
	drop := func(rs []string, gone map[string]bool) []string {
		out := rs[:0:0]
		for _, r := range rs {
			if !gone[strings.ToLower(strings.TrimSpace(r))] {
				out = append(out, r)
			}
		}
		return out
	}
	s, m := given.Contradiction.Single, given.Contradiction.Multi
	switch {
	case s != nil && m != nil:
		multi := norm(*m)
		for _, r := range *s {
			if multi[strings.ToLower(strings.TrimSpace(r))] {
				return fmt.Errorf("policy: contradiction: %q is listed both in single_valued and in multi_valued; keep it in one", r)
			}
		}
	case m != nil:
		c.SingleValued = drop(c.SingleValued, norm(*m))
	case s != nil:
		c.MultiValued = drop(c.MultiValued, norm(*s))
	}
	return nil
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
