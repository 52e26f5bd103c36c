"""A table's side of the café: it reports to one MQTT broker (:mod:`companion.mqtt.link`), in the shared
view only (:mod:`companion.mqtt.messages`), in the wire format of :mod:`wire`."""
