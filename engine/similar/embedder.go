package similar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"
)

// An Embedder turns texts into vectors. Vectors of different models are not
// comparable, so callers store Model with every vector.
type Embedder interface {
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([]Vector, error)
	// Model identifies the model and its version.
	Model() string
}

// HashingModel is the model id of [HashingEmbedder].
const HashingModel = "memgov-hash-v1"

// HashingEmbedder is the built-in Embedder: [Embed] for each text. It needs no
// network and no model files.
type HashingEmbedder struct{}

var _ Embedder = HashingEmbedder{}

// Embed returns Embed(t) for each text t. It stops early with the context's error
// if ctx is done.
func (HashingEmbedder) Embed(ctx context.Context, texts []string) ([]Vector, error) {
	out := make([]Vector, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("hashing embedder: %w", err)
			}
		}
		out[i] = Embed(t)
	}
	return out, nil
}

// Model returns [HashingModel].
func (HashingEmbedder) Model() string { return HashingModel }

// DefaultTimeout bounds one [HTTPEmbedder] request when its Timeout is zero.
const DefaultTimeout = 30 * time.Second

// maxResponse bounds the body read from an embeddings endpoint.
const maxResponse = 64 << 20

// HTTPEmbedder calls an OpenAI-compatible embeddings endpoint:
// POST {URL}/embeddings with {"model": ModelID, "input": [texts...]}, answered by
// {"data": [{"embedding": [...], "index": i}, ...]}. Each embedding becomes a
// Vector with [Dense].
type HTTPEmbedder struct {
	URL     string        // base URL, such as "https://api.openai.com/v1"
	ModelID string        // the "model" field of the request
	APIKey  string        // sent as a Bearer token when not empty
	Client  *http.Client  // nil means http.DefaultClient
	Timeout time.Duration // per request; zero means DefaultTimeout
}

var _ Embedder = (*HTTPEmbedder)(nil)

// Model returns the ModelID.
func (e *HTTPEmbedder) Model() string {
	if e == nil {
		return ""
	}
	return e.ModelID
}

// A StatusError is returned by [HTTPEmbedder.Embed] when the endpoint answers
// with a status other than 200 OK.
type StatusError struct {
	StatusCode int
	Message    string // the endpoint's error message, or the start of its body
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("embeddings endpoint: status %d", e.StatusCode)
	}
	return fmt.Sprintf("embeddings endpoint: status %d: %s", e.StatusCode, e.Message)
}

type embeddingsRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingsResponse struct {
	Data []struct {
		Embedding []float64 `json:"embedding"`
		Index     *int      `json:"index"`
	} `json:"data"`
}

// Embed sends texts to the endpoint in one request and returns their vectors in
// the order of texts. It fails with a [*StatusError] on a status other than 200,
// and with an error on a malformed response: invalid JSON, a count other than
// len(texts), a missing, repeated or out-of-range index, an empty embedding,
// embeddings of different lengths or values out of float32 range.
func (e *HTTPEmbedder) Embed(ctx context.Context, texts []string) ([]Vector, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if e == nil || e.URL == "" {
		return nil, errors.New("http embedder: no URL")
	}
	body, err := json.Marshal(embeddingsRequest{Model: e.ModelID, Input: texts})
	if err != nil {
		return nil, fmt.Errorf("http embedder: encode request: %w", err)
	}
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := strings.TrimRight(e.URL, "/") + "/embeddings"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("http embedder: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	client := e.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("http embedder: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("http embedder: read response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{StatusCode: resp.StatusCode, Message: errorMessage(raw)}
	}
	if len(raw) > maxResponse {
		return nil, fmt.Errorf("http embedder: response larger than %d bytes", maxResponse)
	}
	vs, err := decodeEmbeddings(raw, len(texts))
	if err != nil {
		return nil, fmt.Errorf("http embedder: %w", err)
	}
	return vs, nil
}

// decodeEmbeddings checks and converts a response body for n inputs.
func decodeEmbeddings(raw []byte, n int) ([]Vector, error) {
	var r embeddingsResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("malformed response: %w", err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("malformed response: %d embeddings for %d inputs", len(r.Data), n)
	}
	out := make([]Vector, n)
	seen := make([]bool, n)
	dim := -1
	for _, d := range r.Data {
		if d.Index == nil {
			return nil, errors.New("malformed response: embedding without index")
		}
		i := *d.Index
		if i < 0 || i >= n || seen[i] {
			return nil, fmt.Errorf("malformed response: bad or repeated index %d", i)
		}
		seen[i] = true
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("malformed response: empty embedding at index %d", i)
		}
		if dim >= 0 && len(d.Embedding) != dim {
			return nil, fmt.Errorf("malformed response: embedding %d has %d dimensions, want %d", i, len(d.Embedding), dim)
		}
		dim = len(d.Embedding)
		f := make([]float32, dim)
		for k, x := range d.Embedding {
			if math.Abs(x) > math.MaxFloat32 {
				return nil, fmt.Errorf("malformed response: embedding %d value %d out of float32 range", i, k)
			}
			f[k] = float32(x)
		}
		out[i] = Dense(f)
	}
	return out, nil
}

// errorMessage extracts the message of an OpenAI-style error body
// ({"error": {"message": ...}}), or returns the start of the body.
func errorMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return truncate(e.Error.Message)
	}
	return truncate(strings.TrimSpace(string(raw)))
}

func truncate(s string) string {
	const n = 256
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
