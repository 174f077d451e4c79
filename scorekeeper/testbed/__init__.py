"""Tables with known truth that the tests and benchmarks play the camera on: rendered films with a
reader that spoils their labels, a phone's MJPEG stream, the settling conditions' clips and whole
marked games on the demo table. Nothing of the program itself imports it."""
