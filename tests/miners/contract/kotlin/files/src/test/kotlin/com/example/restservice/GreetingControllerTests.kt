package com.example.restservice

@RestController
class FixtureController {
    @GetMapping("/fixture")
    fun fixture() = "x"
}
