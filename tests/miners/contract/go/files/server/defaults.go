package server

import (
	"errors"
	"time"
)

// DefaultCORSConfig is the configuration New uses.
var DefaultCORSConfig = CORSConfig{
	AllowOrigins: []string{"*"},
	MaxAge:       600,
	Timeout:      5 * time.Second,
	BodyLimit:    32 << 20,
	Skipper:      DefaultSkipper,
	Retry:        RetryConfig{Attempts: 3},
}

var ServerOptions = map[string]int{"body": 1048576, "headers": 100}

var (
	// ReadTimeout of a connection.
	ReadTimeout = 30 * time.Second
	MaxConns    int = 100
)

var ErrNotFound = errors.New("not found")
var upgrader = Upgrader{ReadBufferSize: 1024}
