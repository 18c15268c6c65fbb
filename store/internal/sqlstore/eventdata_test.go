package sqlstore

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestMemoryWrittenEncodesAsItsMap checks that the memory.written event's
// data has the bytes that the map of its members had, which the events of
// stores written before carry: a replay must give the same rows.
func TestMemoryWrittenEncodesAsItsMap(t *testing.T) {
	for _, v := range []string{"", "acme/agent", "a<b>&c\u2028\"\\", "é日本🙂", "bad\xffutf8"} {
		d := memoryWritten{AgentID: v, ItemID: v + "1", MemoryRef: v + "2", Op: "INSERT", VersionID: v + "3"}
		got, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(map[string]any{"memoryRef": d.MemoryRef, "itemId": d.ItemID, "versionId": d.VersionID, "agentId": d.AgentID, "op": d.Op})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
}
