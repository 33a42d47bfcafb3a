package org.example.petstore;

@RestController
@RequestMapping("/owners")
class OwnerController {

    private static final int PAGE_SIZE = 5;
    static final long MAX_UPLOAD = 10 * 1024 * 1024;

    @GetMapping("/{ownerId}")
    public Owner showOwner(@PathVariable int ownerId) {
        return owners.findById(ownerId).orElseThrow();
    }

    abstract void audit(Owner owner);

    @GetMapping
    public List<Owner> listOwners(@RequestParam(name = "page", defaultValue = "1") int page) {
        return owners.page(page, PAGE_SIZE);
    }
}
