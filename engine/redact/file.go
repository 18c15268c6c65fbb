package redact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxSecretsFile bounds the size of a secrets file.
const maxSecretsFile = 16 << 20

// ParseSecretsFile reads secrets as a map from secret id to value, in one of
// two forms: a JSON object {"id": "value", ...}, or lines of ID=VALUE where
// blank lines and lines starting with # are skipped, spaces around ID and
// VALUE are trimmed, and a VALUE wrapped in matching single or double quotes
// loses them. Ids must match [A-Za-z0-9._-]{1,64} and appear once. Errors name
// the line (or the JSON offset) and never a value.
func ParseSecretsFile(r io.Reader) (map[string]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSecretsFile+1))
	if err != nil {
		return nil, fmt.Errorf("redact: read secrets file: %w", err)
	}
	if len(data) > maxSecretsFile {
		return nil, fmt.Errorf("redact: secrets file larger than %d bytes", maxSecretsFile)
	}
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '{' {
		return parseSecretsJSON(t)
	}
	return parseSecretsLines(data)
}

func parseSecretsJSON(data []byte) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	fail := func(what string) error {
		return fmt.Errorf("redact: secrets file: %s at line %d", what, lineAt(data, dec.InputOffset()))
	}
	if _, err := dec.Token(); err != nil { // '{'
		return nil, fail("invalid JSON")
	}
	secrets := make(map[string]string)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fail("invalid JSON")
		}
		id, _ := tok.(string)
		if !ValidSecretID(id) {
			return nil, fail("invalid secret id")
		}
		if _, dup := secrets[id]; dup {
			return nil, fail("duplicate secret id")
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fail("invalid JSON")
		}
		s, ok := v.(string)
		if !ok {
			return nil, fail("value of a secret is not a string")
		}
		secrets[id] = s
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, fail("invalid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail("data after the JSON object")
	}
	return secrets, nil
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

func parseSecretsLines(data []byte) (map[string]string, error) {
	secrets := make(map[string]string)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxSecretsFile+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("redact: secrets file: line %d: want ID=VALUE", n)
		}
		id, value = strings.TrimSpace(id), strings.TrimSpace(value)
		if !ValidSecretID(id) {
			return nil, fmt.Errorf("redact: secrets file: line %d: %w", n, ErrInvalidSecretID)
		}
		if _, dup := secrets[id]; dup {
			return nil, fmt.Errorf("redact: secrets file: line %d: duplicate secret id", n)
		}
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		secrets[id] = value
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("redact: secrets file: line too long: %w", err)
		}
		return nil, fmt.Errorf("redact: read secrets file: %w", err)
	}
	return secrets, nil
}
