package server

import (
	"net/http"
	"time"
)

// Init opens the database and the server.
func Init() *http.Server {
	db, _ := gorm.Open("sqlite3", "./gorm.db")
	db.DB().SetMaxIdleConns(10)
	time.Sleep(5)
	return &http.Server{
		Addr:           ":8080",
		ReadTimeout:    10 * time.Second,
		MaxHeaderBytes: 1 << 20,
		Handler:        nil,
	}
}
