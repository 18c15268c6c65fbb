package door

import (
	_ "embed"
	"net/http"
)

// openapiDoc describes the JSON API; TestOpenAPIMatchesRoutes holds it to
// the routes the server registers.
//
//go:embed openapi.json
var openapiDoc []byte

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openapiDoc)
}
