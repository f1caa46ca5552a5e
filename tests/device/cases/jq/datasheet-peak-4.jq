all(.results[] | select(.backend == "host"); has("datasheet") | not)
