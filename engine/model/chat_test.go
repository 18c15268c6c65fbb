package model

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov/engine/policy"
)

func TestParseVerdict(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Verdict
		ok   bool
	}{
		{`{"relation": "contradiction", "confidence": 0.9}`, Verdict{Contradiction, 0.9}, true},
		{"Sure.\n```json\n{\"relation\": \"Entails\", \"confidence\": 1}\n```", Verdict{Entails, 1}, true},
		{`{"relation": "neutral", "confidence": 0}`, Verdict{Neutral, 0}, true},
		{`{"relation": "maybe", "confidence": 0.5}`, Verdict{}, false},
		{`{"relation": "neutral", "confidence": 1.5}`, Verdict{}, false},
		{`no verdict here`, Verdict{}, false},
		{`{"relation": }`, Verdict{}, false},
	} {
		got, err := parseVerdict(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("parseVerdict(%q) = %+v, %v; want %+v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestEndpointAndPolicy(t *testing.T) {
	for base, want := range map[string]string{
		"http://localhost:11434":     "http://localhost:11434/v1/chat/completions",
		"http://localhost:11434/":    "http://localhost:11434/v1/chat/completions",
		"https://api.example.com/v1": "https://api.example.com/v1/chat/completions",
	} {
		if got := endpoint(base, "chat/completions"); got != want {
			t.Errorf("endpoint(%q) = %q, want %q", base, got, want)
		}
	}
	p := policy.Default()
	if JudgeFromPolicy(p, func(string) string { return "" }) != nil || EmbedderFromPolicy(p, func(string) string { return "" }) != nil {
		t.Fatal("models built from a policy that configures none")
	}
	p.Models.Judge = policy.ModelEndpoint{BaseURL: "http://x", Model: "j", APIKeyEnv: "K"}
	p.Models.Embedder = policy.ModelEndpoint{BaseURL: "http://y/v1", Model: "e", APIKeyEnv: "K"}
	env := func(k string) string { return map[string]string{"K": "key"}[k] }
	j, em := JudgeFromPolicy(p, env), EmbedderFromPolicy(p, env)
	if j == nil || j.APIKey != "key" || j.Model != "j" || j.Timeout != 30*time.Second || em == nil || em.URL != "http://y/v1" || em.APIKey != "key" || em.ModelID != "e" {
		t.Fatalf("judge %+v, embedder %+v", j, em)
	}
}

// A judge sends the key as a bearer token and fails on a server error.
func TestChatJudge(t *testing.T) {
	var (
		mu     sync.Mutex
		auth   string
		status = http.StatusOK
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		auth = r.Header.Get("Authorization")
		if status != http.StatusOK {
			http.Error(w, "down", status)
			return
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"{\"relation\":\"contradiction\",\"confidence\":0.8}"}}]}`))
	}))
	defer srv.Close()
	c := &Chat{BaseURL: srv.URL, Model: "m", APIKey: "k"}
	s, err := c.Contradiction(context.Background(), "a", "b")
	mu.Lock()
	gotAuth := auth
	mu.Unlock()
	if err != nil || s != 0.8 || gotAuth != "Bearer k" {
		t.Fatalf("Contradiction = %v, %v (auth %q)", s, err, gotAuth)
	}
	if rel, conf, err := c.Entailment(context.Background(), "a", "b"); err != nil || rel != Contradiction || conf != 0.8 {
		t.Fatalf("Entailment = %v %v %v", rel, conf, err)
	}
	mu.Lock()
	status = http.StatusBadGateway
	mu.Unlock()
	if _, err := c.Contradiction(context.Background(), "a", "b"); err == nil {
		t.Fatal("a server error is not an error")
	}
}
