package io.periscope.devices;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.EntityTestKits;
import java.time.Instant;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJunitResource;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

public class DevicesEntityTest {
  @ClassRule
  public static final TestKitJunitResource testKit =
      new TestKitJunitResource(EntityTestKits.config());

  private static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");
  private EventSourcedBehaviorTestKit<
          DevicesEntity.Command, DevicesEntity.Event, DevicesEntity.State>
      entity;

  @Before
  public void setUp() {
    entity =
        EventSourcedBehaviorTestKit.create(
            testKit.system(),
            DevicesEntity.create("alice"),
            EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyEquality(true));
  }

  static DeviceValidator.Subscription subscription(String name, String endpoint, String auth) {
    return new DeviceValidator.Subscription(name, endpoint, "p256dh-" + name, auth);
  }

  private StatusReply<DevicesEntity.Registered> register(DeviceValidator.Subscription s) {
    return entity
        .<StatusReply<DevicesEntity.Registered>>runCommand(
            r -> new DevicesEntity.Register(s, AT, r))
        .reply();
  }

  private List<Device> devices() {
    return entity
        .<StatusReply<DevicesEntity.Devices>>runCommand(DevicesEntity.GetDevices::new)
        .reply()
        .getValue()
        .devices();
  }

  @Test
  public void devicesAreKeptInRegistrationOrderAndSurviveARestart() {
    Device phone =
        register(subscription("phone", "https://push.example/1", "a1")).getValue().device();
    Device laptop =
        register(subscription("laptop", "https://push.example/2", "a2")).getValue().device();
    assertTrue(phone.id().matches("d[0-9a-f]{16}"));
    assertFalse(phone.id().equals(laptop.id()));
    entity.restart();
    assertEquals(List.of(phone, laptop), devices());
  }

  @Test
  public void theSameEndpointAgainUpdatesThatDeviceAndKeepsItsId() {
    var first = register(subscription("phone", "https://push.example/1", "a1")).getValue();
    assertTrue(first.created());
    var again = register(subscription("my phone", "https://push.example/1", "a2")).getValue();
    assertFalse(again.created());
    assertEquals(first.device().id(), again.device().id());
    entity.restart();
    assertEquals(
        List.of(
            new Device(
                first.device().id(),
                "my phone",
                "https://push.example/1",
                "p256dh-my phone",
                "a2",
                AT)),
        devices());
  }

  @Test
  public void theOwnerRemovesADeviceAndRemovingNoneIsRefused() {
    Device phone =
        register(subscription("phone", "https://push.example/1", "a1")).getValue().device();
    var missing =
        entity.<StatusReply<Done>>runCommand(r -> new DevicesEntity.Remove("d0000000000000000", r));
    assertTrue(missing.reply().isError());
    assertTrue(missing.hasNoEvents());
    var removed =
        entity.<StatusReply<Done>>runCommand(r -> new DevicesEntity.Remove(phone.id(), r));
    assertEquals(
        DevicesEntity.REMOVED_BY_OWNER,
        removed.eventOfType(DevicesEntity.DeviceRemoved.class).reason());
    entity.restart();
    assertEquals(List.of(), devices());
  }

  @Test
  public void aGoneSubscriptionRemovesTheDeviceOnlyIfItStillHasThatEndpoint() {
    Device phone =
        register(subscription("phone", "https://push.example/1", "a1")).getValue().device();
    var stale =
        entity.<StatusReply<Done>>runCommand(
            r -> new DevicesEntity.RemoveGone(phone.id(), "https://push.example/old", r));
    assertTrue(stale.reply().isSuccess());
    assertTrue(stale.hasNoEvents());
    var gone =
        entity.<StatusReply<Done>>runCommand(
            r -> new DevicesEntity.RemoveGone(phone.id(), phone.endpoint(), r));
    assertEquals(
        DevicesEntity.REMOVED_AS_GONE,
        gone.eventOfType(DevicesEntity.DeviceRemoved.class).reason());
    assertEquals(List.of(), devices());
  }

  @Test
  public void anOwnerHasAtMostTheBoundOfDevicesButMayStillUpdateThem() {
    for (int i = 0; i < DevicesEntity.MAX_DEVICES; i++) {
      assertTrue(register(subscription("d" + i, "https://push.example/" + i, "a")).isSuccess());
    }
    assertTrue(register(subscription("one more", "https://push.example/more", "a")).isError());
    assertTrue(register(subscription("renamed", "https://push.example/0", "a")).isSuccess());
    assertEquals(DevicesEntity.MAX_DEVICES, devices().size());
  }

  @Test
  public void theVapidKeyPairIsAdoptedOnceAndSurvivesARestart() {
    var vapid =
        EventSourcedBehaviorTestKit
            .<VapidKeyEntity.Command, VapidKeyEntity.Event, VapidKeyEntity.State>create(
                testKit.system(),
                VapidKeyEntity.create(VapidKeyEntity.ID),
                EventSourcedBehaviorTestKit.enabledSerializationSettings()
                    .withVerifyEquality(true));
    var first = new VapidKeyEntity.StoredKeys("public-1", "sealed-1");
    assertEquals(
        first,
        vapid
            .<StatusReply<VapidKeyEntity.StoredKeys>>runCommand(
                r -> new VapidKeyEntity.GetOrAdopt(first, r))
            .reply()
            .getValue());
    vapid.restart();
    var second =
        vapid.<StatusReply<VapidKeyEntity.StoredKeys>>runCommand(
            r ->
                new VapidKeyEntity.GetOrAdopt(
                    new VapidKeyEntity.StoredKeys("public-2", "sealed-2"), r));
    assertEquals(first, second.reply().getValue());
    assertTrue(second.hasNoEvents());
  }
}
