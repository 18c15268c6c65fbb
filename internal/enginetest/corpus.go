package enginetest

import "fmt"

var (
	corpusChannels = []string{"email", "phone", "chat", "post", "SMS", "video call", "fax"}
	// CorpusCities are the cities the corpus texts name.
	CorpusCities = []string{"Berlin", "Lyon", "Madrid", "Oslo", "Porto", "Vienna", "Warsaw", "Dublin", "Turin", "Ghent", "Riga"}
	corpusTopics = []string{"refund", "invoice", "shipping delay", "password reset", "contract renewal", "damaged parcel", "discount code", "data export"}
)

// CorpusText is the i-th text of a synthetic corpus of customer-support
// notes (preferences, time zones, orders): the benchmarks' and the search
// index tests' entries.
func CorpusText(i int) string {
	switch i % 3 {
	case 0:
		return fmt.Sprintf("Customer %d prefers %s follow-up about the %s.", i, corpusChannels[i%len(corpusChannels)], corpusTopics[(i/7)%len(corpusTopics)])
	case 1:
		return fmt.Sprintf("Customer %d is in the Europe/%s time zone and asked about a %s.", i, CorpusCities[i%len(CorpusCities)], corpusTopics[(i/5)%len(corpusTopics)])
	default:
		return fmt.Sprintf("Order %d for customer %d ships from the %s warehouse within %d days.", i*3, i, CorpusCities[(i/3)%len(CorpusCities)], 1+i%9)
	}
}
