package similar

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestHashingEmbedder(t *testing.T) {
	var e Embedder = HashingEmbedder{}
	if e.Model() != "memgov-hash-v1" {
		t.Errorf("Model() = %q", e.Model())
	}
	texts := []string{"Customer 42 prefers email", "", base20}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vs), len(texts))
	}
	for i, s := range texts {
		if want := Embed(s); !slices.Equal(vs[i].Idx, want.Idx) || !slices.Equal(vs[i].Val, want.Val) {
			t.Errorf("vector %d differs from Embed(%q)", i, s)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, texts); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: %v, want context.Canceled", err)
	}
}

// embeddingsServer answers like an OpenAI-compatible endpoint with the given
// handler for the parsed request.
func embeddingsServer(t *testing.T, answer func(w http.ResponseWriter, req embeddingsRequest)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
			http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
			return
		}
		var req embeddingsRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answer(w, req)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// fakeEmbedding is a deterministic dense embedding of s.
func fakeEmbedding(s string) []float64 {
	return []float64{float64(len(s)), 1, float64(strings.Count(s, " "))}
}

func TestHTTPEmbedderSuccess(t *testing.T) {
	srv := embeddingsServer(t, func(w http.ResponseWriter, req embeddingsRequest) {
		if req.Model != "text-embed-small" {
			http.Error(w, "wrong model "+req.Model, http.StatusBadRequest)
			return
		}
		// Answer in reverse order: the index field, not the position, counts.
		type item struct {
			Embedding []float64 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			data = append(data, item{fakeEmbedding(req.Input[i]), i})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	})
	e := &HTTPEmbedder{URL: srv.URL + "/v1/", ModelID: "text-embed-small", APIKey: "sk-test", Client: srv.Client()}
	if e.Model() != "text-embed-small" {
		t.Errorf("Model() = %q", e.Model())
	}
	texts := []string{"one", "two words", "three more words"}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vs), len(texts))
	}
	for i, s := range texts {
		f := fakeEmbedding(s)
		want := Dense([]float32{float32(f[0]), float32(f[1]), float32(f[2])})
		if !slices.Equal(vs[i].Idx, want.Idx) || !slices.Equal(vs[i].Val, want.Val) {
			t.Errorf("vector %d = %v, want %v", i, vs[i], want)
		}
		if math.Abs(norm(vs[i])-1) > 1e-6 {
			t.Errorf("vector %d not normalised", i)
		}
	}
	if vs, err := e.Embed(context.Background(), nil); err != nil || len(vs) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want no vectors and no error", vs, err)
	}
}

func TestHTTPEmbedderErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string // in the error
	}{
		{"server error", 500, `{"error":{"message":"model overloaded","type":"server_error"}}`, "status 500: model overloaded"},
		{"plain error", 503, "upstream down\n", "status 503: upstream down"},
		{"malformed JSON", 200, `{"data":[{"embedding":[1,2],"index":0}`, "malformed response"},
		{"not an object", 200, `[1,2,3]`, "malformed response"},
		{"wrong count", 200, `{"data":[{"embedding":[1,2],"index":0}]}`, "1 embeddings for 2 inputs"},
		{"no data", 200, `{}`, "0 embeddings for 2 inputs"},
		{"repeated index", 200, `{"data":[{"embedding":[1,2],"index":0},{"embedding":[1,2],"index":0}]}`, "repeated index 0"},
		{"index out of range", 200, `{"data":[{"embedding":[1,2],"index":0},{"embedding":[1,2],"index":2}]}`, "index 2"},
		{"missing index", 200, `{"data":[{"embedding":[1,2],"index":0},{"embedding":[1,2]}]}`, "without index"},
		{"empty embedding", 200, `{"data":[{"embedding":[],"index":0},{"embedding":[1,2],"index":1}]}`, "empty embedding"},
		{"ragged dimensions", 200, `{"data":[{"embedding":[1,2],"index":0},{"embedding":[1,2,3],"index":1}]}`, "3 dimensions, want 2"},
		{"out of float32 range", 200, `{"data":[{"embedding":[1e39,2],"index":0},{"embedding":[1,2],"index":1}]}`, "out of float32 range"},
		{"string values", 200, `{"data":[{"embedding":"AAAA","index":0},{"embedding":[1,2],"index":1}]}`, "malformed response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := embeddingsServer(t, func(w http.ResponseWriter, req embeddingsRequest) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			})
			e := &HTTPEmbedder{URL: srv.URL + "/v1", ModelID: "m", APIKey: "sk-test", Client: srv.Client()}
			vs, err := e.Embed(context.Background(), []string{"a", "b"})
			if err == nil {
				t.Fatalf("Embed = %v, want error", vs)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			var se *StatusError
			if got := errors.As(err, &se); got != (tt.status != 200) {
				t.Errorf("errors.As(StatusError) = %v for status %d", got, tt.status)
			} else if got && se.StatusCode != tt.status {
				t.Errorf("StatusCode = %d, want %d", se.StatusCode, tt.status)
			}
		})
	}
}

func TestHTTPEmbedderUnauthorized(t *testing.T) {
	srv := embeddingsServer(t, func(w http.ResponseWriter, req embeddingsRequest) {
		t.Error("request without the key reached the handler")
	})
	e := &HTTPEmbedder{URL: srv.URL + "/v1", ModelID: "m", Client: srv.Client()}
	_, err := e.Embed(context.Background(), []string{"a"})
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusUnauthorized || se.Message != "bad key" {
		t.Errorf("Embed without key: %v, want status 401 with the endpoint's message", err)
	}
}

func TestHTTPEmbedderTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := embeddingsServer(t, func(w http.ResponseWriter, req embeddingsRequest) {
		<-release // answer only after the client has given up
	})
	defer close(release)
	e := &HTTPEmbedder{URL: srv.URL + "/v1", ModelID: "m", APIKey: "sk-test", Client: srv.Client(), Timeout: 20 * time.Millisecond}
	_, err := e.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Embed against a stalled server: %v, want context.DeadlineExceeded", err)
	}
}

func TestHTTPEmbedderBadConfig(t *testing.T) {
	for _, e := range []*HTTPEmbedder{
		nil,
		{ModelID: "m"},
		{URL: "http://[::1", ModelID: "m"},
		{URL: "unix:///nowhere", ModelID: "m"},
	} {
		if _, err := e.Embed(context.Background(), []string{"a"}); err == nil {
			t.Errorf("Embed with %+v succeeded, want error", e)
		}
	}
}
