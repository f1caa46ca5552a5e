.devices | length == 1 and .[0].id == "0:0"
