package redact

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestParseSecretsFile(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr string // substring of the error; "" means success
	}{
		{"json", `{"stripe": "sk_live_abc", "gh.token": "ghp_123"}`, map[string]string{"stripe": "sk_live_abc", "gh.token": "ghp_123"}, ""},
		{"json empty", " \n{}\n", map[string]string{}, ""},
		{"json escapes", `{"a":"x\u0041\n"}`, map[string]string{"a": "xA\n"}, ""},
		{
			"lines",
			"# vault export\n\nSTRIPE_KEY=sk_live_abc\r\n  gh = ghp_123  \nQUOTED=\"a b=c\"\nSINGLE='x'\nEMPTY=\n",
			map[string]string{"STRIPE_KEY": "sk_live_abc", "gh": "ghp_123", "QUOTED": "a b=c", "SINGLE": "x", "EMPTY": ""},
			"",
		},
		{"empty file", "", map[string]string{}, ""},
		{"value with equals", "K=a=b=c", map[string]string{"K": "a=b=c"}, ""},

		{"missing equals", "A=1\nsk_live_plaintext\n", nil, "line 2: want ID=VALUE"},
		{"bad id", "# c\nBAD ID=sk_live_plaintext", nil, "line 2: invalid secret id"},
		{"duplicate id", "A=sk_live_plaintext\nA=other", nil, "line 2: duplicate secret id"},
		{"json not a string", "{\n\"a\": \"x\",\n\"b\": 42}", nil, "value of a secret is not a string at line 3"},
		{"json bad id", "{\n\"a b\": \"sk_live_plaintext\"}", nil, "invalid secret id at line 2"},
		{"json duplicate", `{"a":"sk_live_plaintext","a":"y"}`, nil, "duplicate secret id"},
		{"json truncated", `{"a":"sk_live_plaintext"`, nil, "invalid JSON"},
		{"json trailing", `{"a":"sk_live_plaintext"} x`, nil, "data after the JSON object"},
		{"json nested", `{"a":{"b":"sk_live_plaintext"}}`, nil, "not a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSecretsFile(strings.NewReader(tt.in))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseSecretsFile: %v", err)
				}
				if !maps.Equal(got, tt.want) {
					t.Fatalf("ParseSecretsFile = %v, want %v", got, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseSecretsFile succeeded, want error %q", tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "plaintext") {
				t.Errorf("error %q repeats a value", err)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestParseSecretsFileReadError(t *testing.T) {
	if _, err := ParseSecretsFile(failingReader{}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v, want the read error wrapped", err)
	}
}
