package server

import "time"

// Limits of a request.
const (
	// MaxMultipartMemory is how much of a multipart form is kept in memory.
	MaxMultipartMemory = 32 << 20
	DefaultTimeout     = 5 * time.Second
	Version            = "v1.2.0"
)

const abortIndex int8 = 63 / 2

func resolveAddress() string {
	return ":8080"
}

type Engine struct{}

func (e *Engine) trustedCIDRs() int {
	const maxProxies = 10
	return maxProxies
}

func (e *Engine) Run(addr string) error {
	r.GET("/health", health)
	return nil
}
