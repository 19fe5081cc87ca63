package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.periscope.json.ValidationException;
import io.periscope.runtime.LocalEntities;
import org.junit.Test;

/** An id no entity can have is refused before any entity, local or sharded, is asked. */
public class EntityIdsTest {
  @Test
  public void idsThatCannotBePersistenceIdsAreRefused() {
    assertTrue(EntityIds.valid("alice:acme-launch"));
    assertTrue(EntityIds.valid("x".repeat(EntityIds.MAX_LENGTH)));
    assertFalse(EntityIds.valid("a|b@example.org"));
    assertFalse(EntityIds.valid(""));
    assertFalse(EntityIds.valid(null));
    assertFalse(EntityIds.valid("x".repeat(EntityIds.MAX_LENGTH + 1)));
  }

  @Test
  public void aRefusedIdIsAValidationErrorOfItsOwnRequest() {
    // refused before the actor system is used: no entity starts, nothing crashes
    LocalEntities entities = new LocalEntities(null);
    ValidationException e = assertThrows(ValidationException.class, () -> entities.account("a|b"));
    assertEquals("not a valid identifier", e.issues().get(0).message());
  }
}
