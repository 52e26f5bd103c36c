"""The table panel on gpiozero: seat LEDs, status RGB LED, buzzer, buttons, and the signal patterns."""
