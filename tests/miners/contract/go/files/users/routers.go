package users

import "github.com/gin-gonic/gin"

func ProfileRegister(router *gin.RouterGroup) {
	router.POST("/:username/follow", ProfileFollow)
}

func ProfileFollow(c *gin.Context) {}
