package similar

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A synthetic corpus of memory-like sentences for the recall test and the
// benchmarks: templates with slots filled from small vocabularies, so sentences
// of one template share most of their words, as agent memories of one kind do.

var templates = []string{
	"{name} from the {team} team prefers {channel} for {topic} updates and usually replies within {n} hours on {day}",
	"The {service} service stores {object} records in the {region} {store} cluster and keeps nightly backups for {n} days",
	"Customer {id} asked to move the {plan} plan renewal to {month} because the {team} budget closes at the end of {month}",
	"{name} reported that the {service} {component} fails when more than {n} {object} requests arrive within one minute",
	"Meeting notes: {name} and {name} agreed to ship the {feature} feature to {region} users before the end of {month}",
	"{name} is allergic to {food} and prefers {cuisine} restaurants near the {city} office for the monthly team lunch",
	"The {component} of the {service} service was upgraded to version {n}.{n} after the incident reported on {day} by {name}",
	"When a {object} export exceeds {n} megabytes the {service} worker splits it into chunks and notifies the {team} team by {channel}",
	"{name} moved from the {city} office to {city} in {month} and now leads the {team} group working on {feature}",
	"Order {id} for customer {id} was shipped from the {city} warehouse on {day} and should arrive within {n} business days",
}

var vocab = map[string][]string{
	"name":      {"Alice", "Bob", "Carmen", "Dmitri", "Esther", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kavya", "Liam", "Mei", "Nadia", "Oscar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yusuf", "Zoe"},
	"team":      {"billing", "platform", "security", "data", "mobile", "payments", "growth", "support", "infrastructure", "research", "design", "legal"},
	"channel":   {"email", "Slack", "phone calls", "text messages", "video calls", "the ticket queue", "written memos"},
	"topic":     {"release", "incident", "budget", "hiring", "roadmap", "compliance", "customer", "quarterly"},
	"n":         {"2", "3", "4", "5", "7", "8", "10", "12", "14", "24", "30", "48", "60", "90", "100", "250", "500"},
	"day":       {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
	"service":   {"billing", "search", "checkout", "inventory", "notification", "reporting", "identity", "ingestion", "pricing", "shipping"},
	"object":    {"invoice", "user", "order", "payment", "session", "audit", "product", "shipment", "refund", "contract"},
	"region":    {"European", "US East", "US West", "Asian", "Australian", "Canadian", "Brazilian", "Nordic"},
	"store":     {"Postgres", "SQLite", "Cassandra", "Redis", "object storage", "Elasticsearch"},
	"id":        nil, // numbers, generated
	"plan":      {"basic", "team", "business", "enterprise", "starter", "premium"},
	"month":     {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"component": {"scheduler", "cache", "API gateway", "queue consumer", "rate limiter", "database driver", "export job", "webhook handler"},
	"feature":   {"dark mode", "bulk export", "single sign-on", "audit log", "offline sync", "usage alerts", "team folders", "custom roles"},
	"food":      {"peanuts", "shellfish", "gluten", "dairy", "eggs", "soy", "sesame", "tree nuts"},
	"cuisine":   {"Italian", "Thai", "Japanese", "Mexican", "Indian", "Lebanese", "Korean", "Ethiopian", "vegan"},
	"city":      {"Berlin", "Lisbon", "Toronto", "Singapore", "Austin", "Nairobi", "Oslo", "Melbourne", "Seoul", "Dublin"},
}

// newRand returns a deterministic source for seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6d656d676f76)) }

// sentence returns one random sentence of the corpus.
func sentence(r *rand.Rand) string {
	t := templates[r.IntN(len(templates))]
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		j := strings.IndexByte(t[i:], '}') + i
		b.WriteString(t[:i])
		slot := t[i+1 : j]
		if slot == "id" {
			b.WriteString(strconv.Itoa(1000 + r.IntN(90000)))
		} else {
			words := vocab[slot]
			b.WriteString(words[r.IntN(len(words))])
		}
		t = t[j+1:]
	}
}

// nearDuplicate applies edits small edits to s, each one of: a typo inside a
// word, a changed article, a case change with added punctuation, or a plural.
func nearDuplicate(r *rand.Rand, s string, edits int) string {
	for range edits {
		words := strings.Fields(s)
		w := r.IntN(len(words))
		switch r.IntN(4) {
		case 0: // typo: drop, double or swap a letter
			word := words[w]
			if utf8.RuneCountInString(word) < 4 || len(word) != utf8.RuneCountInString(word) {
				continue
			}
			k := 1 + r.IntN(len(word)-2)
			switch r.IntN(3) {
			case 0:
				word = word[:k] + word[k+1:]
			case 1:
				word = word[:k] + word[k:k+1] + word[k:]
			default:
				word = word[:k] + word[k+1:k+2] + word[k:k+1] + word[k+2:]
			}
			words[w] = word
		case 1: // article change
			for i, x := range words {
				if x == "the" || x == "a" {
					words[i] = map[string]string{"the": "a", "a": "the"}[x]
					break
				}
			}
		case 2: // case and punctuation
			words[w] = strings.ToUpper(words[w])
			words[len(words)-1] += "."
		case 3: // plural
			words[w] += "s"
		}
		s = strings.Join(words, " ")
	}
	return s
}
