# fit's table of live devices: each device's memory, largest allocation, what fits and the
# headroom are the machine's (pocl's memory is the host's; its largest allocation follows
# free memory), and so are the name and the column widths they set. Kept: every line that
# is not the devices', the header's words, each row's device id and every key and field.
# table: the header's column gaps, the rule under it, and each row after its id
/^DEVICE .*MEMORY/{
s/ +/ /g
n
s/^[- ]+$/<rule>/
}
s/^([0-9]+:[0-9]+) .*/\1 <live>/
# JSON: the top-level "devices" array, every value but the id
/^  "devices": \[$/,/^  \],?$/{
/^ +"id": /b
s/^( +"[a-z_0-9]+": )("[^"]*"|-?[0-9][0-9.e+-]*|true|false|null)(,?)$/\1"<live>"\3/
}
# CSV: each field of a device's row after its id
/^[0-9]+:[0-9]+,/s/,[^,]*/,<live>/g
