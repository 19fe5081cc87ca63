package io.periscope.entity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.account.AccountEntity;
import io.periscope.auth.Role;
import io.periscope.llm.ModelChoice;
import io.periscope.llm.ModelConfigEntity;
import io.periscope.llm.ModelConfiguration;
import io.periscope.testing.EntityTestKits;
import io.periscope.watch.RunRecord;
import io.periscope.watch.RunRecords;
import java.time.Instant;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.junit.ClassRule;
import org.junit.Test;

/** A message that names a moved class by its old name still reads, as the moved class. */
public class MovedClassesTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  @Test
  public void aRunRecordSentUnderItsOldNameReadsAsTheMovedClass() throws Exception {
    Serialization serialization = SerializationExtension.get(testKit.system());
    RunRecord record = RunRecords.crashed("manual", Instant.now(), new IllegalStateException());
    var serializer = (SerializerWithStringManifest) serialization.findSerializerFor(record);
    byte[] bytes = serializer.toBinary(record);
    assertEquals("io.periscope.watch.RunRecord", serializer.manifest(record));

    Object read = serializer.fromBinary(bytes, "io.periscope.run.RunRecord");

    assertEquals(record, read);
  }

  @Test
  public void aModelConfigurationEventJournaledUnderTheOldPackageReadsAsTheMovedClass()
      throws Exception {
    Serialization serialization = SerializationExtension.get(testKit.system());
    var event =
        new ModelConfigEntity.Changed(
            ModelConfiguration.both(ModelChoice.withDefaults("openai", "", "")),
            Instant.parse("2026-01-01T00:00:00Z"),
            "root");
    var serializer = (SerializerWithStringManifest) serialization.findSerializerFor(event);
    byte[] bytes = serializer.toBinary(event);

    Object read = serializer.fromBinary(bytes, "io.periscope.model.ModelConfigEntity$Changed");

    assertEquals(event, read);
  }

  @Test
  public void anAccountEventJournaledUnderTheOwnerPackageReadsAsTheAccountEntitysEvent()
      throws Exception {
    Serialization serialization = SerializationExtension.get(testKit.system());
    var event = new AccountEntity.RoleChanged(Role.ADMIN);
    var serializer = (SerializerWithStringManifest) serialization.findSerializerFor(event);
    byte[] bytes = serializer.toBinary(event);

    Object read = serializer.fromBinary(bytes, "io.periscope.owner.OwnerEntity$RoleChanged");

    assertEquals(event, read);
  }

  @Test
  public void everySerializedClassOfTheAccountEntityIsFoundUnderItsOldName() {
    for (Class<?> nested : AccountEntity.class.getDeclaredClasses()) {
      if (JsonSerializable.class.isAssignableFrom(nested) && !nested.isInterface()) {
        String oldName = "io.periscope.owner.OwnerEntity$" + nested.getSimpleName();
        assertEquals(oldName, nested.getName(), MovedClasses.NEW_NAMES.get(oldName));
      }
    }
  }

  @Test
  public void everyOldNameIsBoundToTheMigrationAndOnlyTheNewNameIsAClass() {
    var migrations = EntityTestKits.config().getConfig("pekko.serialization.jackson.migrations");
    for (Map.Entry<String, String> moved : MovedClasses.NEW_NAMES.entrySet()) {
      assertEquals(
          MovedClasses.class.getName(), migrations.getString("\"" + moved.getKey() + "\""));
      assertFalse(exists(moved.getKey()));
      assertTrue(exists(moved.getValue()));
    }
  }

  private static boolean exists(String className) {
    try {
      Class.forName(className);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
