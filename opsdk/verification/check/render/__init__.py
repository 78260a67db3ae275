"""Rendering results: the text report (a line per op, failures in full), JSON, and JUnit XML."""
from .json_report import to_json
from .junit import to_junit_xml
from .table import check_times, render_table, summary_line, times_line
from .text_report import render_report

__all__ = ["render_table", "render_report", "summary_line", "check_times", "times_line", "to_json",
           "to_junit_xml"]
