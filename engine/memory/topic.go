package memory

// TopicQuery selects a write's same-topic neighbours within one memoryRef and
// layer: the versions whose text ranks highest (BM25 over the full-text
// index) against Text, plus those whose extracted subject is Subject.
type TopicQuery struct {
	MemoryRef string
	Layer     Layer
	Text      string
	Subject   string
	// Limit caps the full-text matches (0: 20); subject matches come on top.
	Limit int
	// VersionIDs are further neighbours found by other means (a model's
	// vectors), read too when they are live versions of the ref and layer.
	VersionIDs []string
}
