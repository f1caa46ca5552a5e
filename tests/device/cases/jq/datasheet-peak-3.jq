all(.results[] | select(.precision | IN("int32", "int16", "int8", "int8dot", "bf16")); (has("datasheet") or has("derived_peak")) | not)
