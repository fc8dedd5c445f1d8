import hnb
print("callmonitor")
