package io.periscope.account;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.Test;

public class WatchRegistryTest {
  @Test
  public void keepsCreationOrderAndRegistersAnIdOnce() {
    WatchRegistry registry = WatchRegistry.of(List.of("b", "a")).with(List.of("c", "a", "c"));
    assertEquals(List.of("b", "a", "c"), registry.ids());
    assertTrue(registry.contains("c"));
    assertFalse(registry.contains("d"));
  }

  @Test
  public void anEarlierRegistryIsUnchangedByItsSuccessors() {
    WatchRegistry first = WatchRegistry.of(List.of("a"));
    WatchRegistry second = first.with(List.of("b"));
    WatchRegistry branch =
        first.with(List.of("x")); // extends a registry that is no longer the newest
    second.with(List.of("c"));
    assertEquals(List.of("a"), first.ids());
    assertFalse(first.contains("b"));
    assertEquals(List.of("a", "b"), second.ids());
    assertFalse(second.contains("c"));
    assertEquals(List.of("a", "x"), branch.ids());
    assertFalse(branch.contains("b"));
  }

  @Test
  public void registriesBuiltSeparatelyShareNothing() {
    WatchRegistry alice = WatchRegistry.EMPTY.with(List.of("a"));
    WatchRegistry bob = WatchRegistry.EMPTY.with(List.of("b"));
    assertEquals(List.of("a"), alice.ids());
    assertEquals(List.of("b"), bob.ids());
    assertFalse(WatchRegistry.EMPTY.contains("a"));
  }

  @Test
  public void isWrittenAsThePlainListOfIds() throws Exception {
    ObjectMapper json = new ObjectMapper();
    WatchRegistry registry = WatchRegistry.of(List.of("w2", "w1"));
    assertEquals("[\"w2\",\"w1\"]", json.writeValueAsString(registry));
    assertEquals(registry, json.readValue("[\"w2\",\"w1\"]", WatchRegistry.class));
  }
}
