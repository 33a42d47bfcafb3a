package users

import "github.com/gin-gonic/gin"

// UsersRegister registers the account routes on the group it is given.
func UsersRegister(router *gin.RouterGroup) {
	router.POST("/login", UsersLogin)
}

func UsersLogin(c *gin.Context) {}
