package writes

// Reason codes of write outcomes.
const (
	ReasonReviewRejected = "REVIEW_REJECTED"
)

func f64(v float64) *float64 { return &v }
