package sqlite_test

import (
	"errors"
	"os"
)

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o600) }

func isErr(err, target error) bool { return errors.Is(err, target) }
