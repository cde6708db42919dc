#!/usr/bin/python3
# The same small app as gtk-demo.py, in Qt 5 (PyQt5) on its Wayland platform:
# a colour area (a click on it turns it blue) above a line edit that has the
# keyboard (typing a colour's name and Return paints the area with it) — for
# trying `strata-probe exec` on a Qt client.
import os
import sys

os.environ["QT_QPA_PLATFORM"] = "wayland"          # not XWayland, nor the first platform Qt finds

from PyQt5.QtCore import Qt  # noqa: E402
from PyQt5.QtGui import QGuiApplication  # noqa: E402
from PyQt5.QtWidgets import QApplication, QFrame, QLineEdit, QVBoxLayout, QWidget  # noqa: E402

COLOURS = {"grey": "#808080", "blue": "#3366cc", "green": "#33cc66", "red": "#cc3333"}


class Area(QFrame):
    def __init__(self, demo):
        super().__init__()
        self.demo = demo

    def mouseReleaseEvent(self, event):
        self.demo.paint("blue")
        self.demo.entry.setFocus()


class Demo(QWidget):
    def __init__(self):
        super().__init__()
        self.setWindowTitle("Qt exec demo")
        self.resize(400, 300)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.area = Area(self)
        self.entry = QLineEdit(placeholderText="a colour, then Return")
        self.entry.returnPressed.connect(lambda: self.paint(self.entry.text().strip()))
        layout.addWidget(self.area, 1)
        layout.addWidget(self.entry)
        self.paint("grey", quietly=True)

    def paint(self, name, quietly=False):
        if name in COLOURS:
            self.area.setStyleSheet(f"background: {COLOURS[name]}; border: none;")
            if not quietly:
                print("painted", name, flush=True)


app = QApplication(sys.argv[:1])
QGuiApplication.setDesktopFileName("org.strata.QtExecDemo")   # the app id
app.setCursorFlashTime(0)                                       # a still caret, so the screen settles
demo = Demo()
demo.show()
demo.entry.setFocus(Qt.OtherFocusReason)
status = app.exec_()
# PyQt's teardown of Qt's Wayland connection was seen to take over 10 s on a
# loaded machine (sway, the window already closed): leave at once instead.
sys.stdout.flush()
os._exit(status)
