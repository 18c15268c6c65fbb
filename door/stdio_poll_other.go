//go:build !unix

package door

import "os"

// pollable is false: only Unix pipes and sockets are polled.
func pollable(any, string) (*os.File, func(), bool) { return nil, nil, false }
