package org.example.petstore;

import java.util.List;
import java.util.Optional;

/** Owners, read and written through Spring Data. */
public interface OwnerRepository extends JpaRepository<Owner, Integer> {

    /** Owners whose last name starts with the given text. */
    List<Owner> findByLastNameStartingWith(String lastName);

    Optional<Owner> findById(Integer id);

    default String table() {
        return "owners";
    }
}
