"""The café: each table reports to one MQTT broker (:mod:`companion.mqtt.link`), in the shared view only
(:mod:`companion.mqtt.messages`), configured by the ``[mqtt]`` table (:mod:`companion.mqtt.settings`)."""
