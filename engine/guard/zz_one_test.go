package guard

import (
	"os"
	"strings"
	"testing"
)

func TestZZOne(t *testing.T) {
	for _, s := range strings.Split(os.Getenv("ZZ_TEXTS"), "|") {
		v := checkRules(s)
		p, _ := learned().score(normalize(s).text, false)
		t.Logf("%.3f %v || %v || %.80q", p, v.Findings, v.Orders, s)
	}
}
